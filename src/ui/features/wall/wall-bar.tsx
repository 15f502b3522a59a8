import { useId } from "react";
import { Link } from "react-router-dom";
import type { WallCounts } from "../../../contract/live.ts";
import { useNow } from "../../components/use-now.ts";
import { countsText } from "./wall-text.ts";
import { ROTATE_CHOICES, type Rotation } from "./use-rotation.ts";

const clockFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });

/** The time of day: a wall whose clock moves is a wall that has not frozen. */
function WallClock() {
  const now = useNow(10_000);
  return (
    <time className="wall-clock tabular-nums" dateTime={new Date(now).toISOString()}>
      {clockFormat.format(now)}
    </time>
  );
}

const rotateLabel = (sec: number) => (sec === 0 ? "Off" : sec < 60 ? `${sec} s` : `${sec / 60} min`);

interface WallBarProps {
  counts: WallCounts | null;
  pages: number;
  rotation: Rotation;
  rotateSec: number;
  onRotateChange(sec: number): void;
  fullscreen: { available: boolean; active: boolean; toggle(): void };
}

/**
 * The wall's top line: what it is, the fleet's counts, the time, the page and whether the pages
 * turn, and the few controls a person near the screen may want (nothing that changes a device).
 */
export function WallBar({ counts, pages, rotation, rotateSec, onRotateChange, fullscreen }: WallBarProps) {
  const rotateId = useId();
  const turning = pages > 1 && rotateSec > 0;
  const choices = (ROTATE_CHOICES as readonly number[]).includes(rotateSec) ? ROTATE_CHOICES : [...ROTATE_CHOICES, rotateSec].sort((a, b) => a - b);
  return (
    <header className="wall-bar">
      <h1 className="wall-title">Wall view</h1>
      <WallClock />
      {counts && <p className="wall-summary">{countsText(counts)}</p>}
      {pages > 1 && (
        <p className="wall-summary" aria-live="polite">
          Page {rotation.page + 1} of {pages}
          {turning && !rotation.paused && <span> · turns every {rotateLabel(rotateSec)}</span>}
        </p>
      )}
      {turning && rotation.paused && (
        <span className="wall-chip wall-chip--paused" role="status">
          Paused{rotation.pinned ? "" : " while in use"}
        </span>
      )}
      <div className="wall-controls" role="group" aria-label="Wall controls">
        {pages > 1 && (
          <>
            <button type="button" className="wall-button" onClick={rotation.previous}>
              Previous page
            </button>
            <button type="button" className="wall-button" onClick={rotation.next}>
              Next page
            </button>
          </>
        )}
        {turning && (
          <button type="button" className="wall-button" aria-pressed={rotation.pinned} onClick={() => rotation.setPinned(!rotation.pinned)}>
            {rotation.pinned ? "Resume" : "Pause"}
          </button>
        )}
        <label htmlFor={rotateId}>Turn pages every</label>
        <select id={rotateId} className="wall-select" value={rotateSec} onChange={(e) => onRotateChange(Number(e.target.value))}>
          {choices.map((sec) => (
            <option key={sec} value={sec}>
              {rotateLabel(sec)}
            </option>
          ))}
        </select>
        {fullscreen.available && (
          <button type="button" className="wall-button" onClick={fullscreen.toggle}>
            {fullscreen.active ? "Exit full screen" : "Full screen"}
          </button>
        )}
        <Link to="/dashboard" className="wall-button">
          Exit wall view
        </Link>
      </div>
    </header>
  );
}
