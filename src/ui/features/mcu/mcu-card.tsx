import { memo, useId } from "react";
import type { Mcu, McuStatus } from "../../../contract/entities.ts";
import type { McuLive } from "../../../contract/live.ts";
import { mcuLiveStatus } from "../../../streams/live-status.ts";
import { BUILT_IN_SETTINGS_TEXT } from "../../components/built-in-settings-note.tsx";
import { formatDate } from "../../components/dates.ts";
import { ChartIcon, HistoryLink, mcuHistoryPath } from "../../components/history-link.tsx";
import { EditIcon, TrashIcon } from "../../components/icons.tsx";
import { useMcu, useMcuLiveWith } from "../../data/hooks.ts";
import { batteryLevelOf, sameShownBattery } from "./battery.ts";
import { BatteryBar } from "./battery-bar.tsx";
import { formatLastSeen } from "./last-seen.ts";
import { ProfileLinkField } from "./profile-link-field.tsx";
import { StatusBadge } from "./status-badge.tsx";

/** The newest sign of life: a live reading of this page's life, or the record's lastSeen. */
function lastSeenMs(mcu: Mcu, liveAt: number | null | undefined): number | null {
  const recorded = mcu.lastSeen ? Date.parse(mcu.lastSeen) : Number.NaN;
  const candidates = [liveAt ?? Number.NaN, recorded].filter((t) => !Number.isNaN(t));
  return candidates.length ? Math.max(...candidates) : null;
}

/** What the card shows of the MCU's live snapshot. */
interface LiveFacts {
  status: McuStatus;
  battery: number | null;
  /** The newest sign of life (ms), and the words for it at the page's `now`. */
  seen: number | null;
  seenText: string;
}

function liveFacts(mcu: Mcu, live: McuLive | undefined, now: number): LiveFacts {
  const seen = lastSeenMs(mcu, live?.lastReadingAt);
  return { status: mcuLiveStatus(mcu.status, live), battery: batteryLevelOf(mcu, live), seen, seenText: formatLastSeen(seen, now) };
}

/**
 * Readings come five times a second; what the card shows of them changes far less often. The
 * `<time>`'s machine-readable moment is then the one of the reading that last changed its words
 * ("Just now" stays "Just now", and so does its moment, until the minute has passed).
 */
const sameFacts = (a: LiveFacts | null, b: LiveFacts | null) =>
  a === null || b === null ? a === b : a.status === b.status && a.seenText === b.seenText && sameShownBattery(a.battery, b.battery);

/**
 * One MCU (SPEC §2). Subscribes to its own record and live snapshot only, and re-renders for
 * a reading only when what it shows of it changed.
 */
export const McuCard = memo(function McuCard({ mcuId, now, onEdit, onDelete }: { mcuId: number; now: number; onEdit: (mcu: Mcu) => void; onDelete: (mcu: Mcu) => void }) {
  const mcu = useMcu(mcuId);
  const facts = useMcuLiveWith(mcu?.mac, (live) => (mcu ? liveFacts(mcu, live, now) : null), sameFacts);
  const titleId = useId();
  if (!mcu || !facts) return null;
  const { seen } = facts;

  return (
    <article aria-labelledby={titleId} className="card w-full p-4 4xl:p-7 flex flex-col gap-3 4xl:gap-5 min-w-0">
      <header className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <h3 id={titleId} className="font-semibold text-gray-900 text-base 4xl:text-2xl break-words">
              {mcu.name}
            </h3>
            <StatusBadge status={facts.status} />
          </div>
          <p className="text-xs 4xl:text-base text-gray-500 mt-0.5">ID {mcu.mcu_id}</p>
        </div>
        <div className="flex shrink-0 -mr-2 -mt-1">
          <button type="button" className="icon-btn w-10 h-10 4xl:w-12 4xl:h-12" aria-label={`Edit ${mcu.name}`} title="Edit" onClick={() => onEdit(mcu)}>
            <EditIcon className="text-lg 4xl:text-2xl" />
          </button>
          <button type="button" className="icon-btn w-10 h-10 4xl:w-12 4xl:h-12 hover:bg-red-50 hover:text-red-700" aria-label={`Delete ${mcu.name}`} title="Delete" onClick={() => onDelete(mcu)}>
            <TrashIcon className="text-lg 4xl:text-2xl" />
          </button>
        </div>
      </header>

      <dl className="grid grid-cols-[5.5rem_minmax(0,1fr)] 4xl:grid-cols-[9rem_minmax(0,1fr)] items-center gap-x-3 gap-y-2.5 4xl:gap-y-4 text-sm 4xl:text-xl">
        <dt className="text-gray-500">Farm</dt>
        <dd className="text-gray-900 font-medium truncate">{mcu.farm.name}</dd>
        <ProfileLinkField mcu={mcu} />
        {/* A second description of Profile. */}
        {mcu.profile_links.length === 0 && <dd className="col-start-2 -mt-1.5 text-xs 4xl:text-base text-gray-600">{BUILT_IN_SETTINGS_TEXT}</dd>}
        <dt className="text-gray-500">MAC</dt>
        <dd className="font-mono text-gray-900 break-all">{mcu.mac}</dd>
        <dt className="text-gray-500">Battery</dt>
        <dd>
          <BatteryBar level={facts.battery} label={`Battery of ${mcu.name}`} />
        </dd>
        <dt className="text-gray-500">Last Seen</dt>
        <dd className="text-gray-900">
          {seen === null ? "Never" : <time dateTime={new Date(seen).toISOString()}>{facts.seenText}</time>}
        </dd>
        <dt className="text-gray-500">Added</dt>
        <dd className="text-gray-900">
          <time dateTime={mcu.createdAt}>{formatDate(mcu.createdAt)}</time>
        </dd>
      </dl>
      <HistoryLink
        to={mcuHistoryPath(mcu.mcu_id)}
        label={`History of ${mcu.name}`}
        className="mt-auto self-start -ml-2 -mb-2 inline-flex min-h-11 items-center gap-1.5 rounded-lg px-2 text-sm 4xl:text-xl font-medium text-brand-700 hover:bg-brand-50 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <ChartIcon /> History
      </HistoryLink>
    </article>
  );
});
