import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { WallCounts } from "../../../contract/live.ts";
import { useNow } from "../../components/use-now.ts";
import { dateTimeFormat } from "../../i18n/format.ts";
import { countsText, formatCount, rotateText, separator } from "./wall-text.ts";
import { ROTATE_CHOICES, type Rotation } from "./use-rotation.ts";

const CLOCK: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit" };

/** The time of day: a wall whose clock moves is a wall that has not frozen. Re-rendered with the bar on a change of language or digits. */
function WallClock() {
  const now = useNow(10_000);
  return (
    <time className="wall-clock tabular-nums" dateTime={new Date(now).toISOString()}>
      {dateTimeFormat(CLOCK).format(now)}
    </time>
  );
}

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
  const { t } = useTranslation("wall");
  const rotateId = useId();
  const turning = pages > 1 && rotateSec > 0;
  const choices = (ROTATE_CHOICES as readonly number[]).includes(rotateSec) ? ROTATE_CHOICES : [...ROTATE_CHOICES, rotateSec].sort((a, b) => a - b);
  return (
    <header className="wall-bar">
      <h1 className="wall-title">{t("bar.title")}</h1>
      <WallClock />
      {counts && <p className="wall-summary">{countsText(counts)}</p>}
      {pages > 1 && (
        <p className="wall-summary" aria-live="polite">
          {t("bar.page", { page: formatCount(rotation.page + 1), pages: formatCount(pages) })}
          {turning && !rotation.paused && <span>
              {separator()}
              {t("bar.turnsEvery", { interval: rotateText(rotateSec) })}
            </span>}
        </p>
      )}
      {turning && rotation.paused && (
        <span className="wall-chip wall-chip--paused" role="status">
          {rotation.pinned ? t("bar.paused") : t("bar.pausedInUse")}
        </span>
      )}
      <div className="wall-controls" role="group" aria-label={t("bar.controls")}>
        {pages > 1 && (
          <>
            <button type="button" className="wall-button" onClick={rotation.previous}>
              {t("bar.previous")}
            </button>
            <button type="button" className="wall-button" onClick={rotation.next}>
              {t("bar.next")}
            </button>
          </>
        )}
        {turning && (
          <button type="button" className="wall-button" aria-pressed={rotation.pinned} onClick={() => rotation.setPinned(!rotation.pinned)}>
            {rotation.pinned ? t("bar.resume") : t("bar.pause")}
          </button>
        )}
        <label htmlFor={rotateId}>{t("bar.turnPagesEvery")}</label>
        <select id={rotateId} className="wall-select" value={rotateSec} onChange={(e) => onRotateChange(Number(e.target.value))}>
          {choices.map((sec) => (
            <option key={sec} value={sec}>
              {rotateText(sec)}
            </option>
          ))}
        </select>
        {fullscreen.available && (
          <button type="button" className="wall-button" onClick={fullscreen.toggle}>
            {fullscreen.active ? t("bar.exitFullScreen") : t("bar.fullScreen")}
          </button>
        )}
        <Link to="/dashboard" className="wall-button">
          {t("bar.exit")}
        </Link>
      </div>
    </header>
  );
}
