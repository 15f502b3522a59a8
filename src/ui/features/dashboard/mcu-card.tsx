import { memo } from "react";
import { isLowBattery, type Breach } from "../../../contract/conditions.ts";
import type { LiveReading, SensorType } from "../../../contract/entities.ts";
import { COMMAND_TARGETS } from "../../../contract/enums.ts";
import { pendingKey } from "../../../streams/device-snapshots.ts";
import { formatReadingTime } from "../../components/dates.ts";
import { BatchLine } from "../../components/batch-line.tsx";
import { BuiltInSettingsNote } from "../../components/built-in-settings-note.tsx";
import { ChartIcon, HistoryLink, mcuHistoryPath } from "../../components/history-link.tsx";
import { OnlinePill } from "../../components/online-pill.tsx";
import { useMcuRefusal } from "../../data/farm-roles.ts";
import { useConnection, useMcuCard } from "../../data/hooks.ts";
import { DeviceTile } from "./device-tile.tsx";
import { AlertIcon, LiveReadings, SHOWN_METRICS } from "./live-readings.tsx";
import { unregisteredSensors } from "./sensor-totals.ts";

/**
 * Sensors that report without being registered, counted once for the card (each value's
 * "reporting/total" already includes them), and where to register them. Words, not a link: a
 * fleet of new MCUs would add a stop per card to the keyboard's way through the grid.
 */
function UnregisteredSensorsNote({ readings, totals }: { readings: LiveReading; totals: Readonly<Record<SensorType, number>> }) {
  const count = unregisteredSensors(readings, totals);
  if (count === 0) return null;
  return (
    <p className="text-sm 4xl:text-lg text-gray-700">
      {count === 1 ? "1 reporting sensor is not registered yet: scan it in Sensors Manager." : `${count} reporting sensors are not registered yet: scan them in Sensors Manager.`}
    </p>
  );
}

/**
 * What needs the farmer's attention beyond the marked values: a low battery (SPEC §9: below 30),
 * and a reading outside the profile that the grid does not show (soil moisture).
 */
function AttentionNotes({ readings, breaches }: { readings: LiveReading; breaches: readonly Breach[] }) {
  const notes: string[] = [];
  if (isLowBattery(readings)) notes.push(`Battery low: ${Math.round(readings.batteryLevel!)}%`);
  for (const b of breaches) if (!SHOWN_METRICS.has(b.metric)) notes.push(b.body);
  if (notes.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1">
      {notes.map((note) => (
        <li key={note} className="flex items-center gap-1.5 rounded-lg bg-amber-50 px-3 py-1.5 text-sm 4xl:text-lg font-medium text-amber-900 ring-1 ring-inset ring-amber-300">
          <AlertIcon className="shrink-0" />
          {note}
        </li>
      ))}
    </ul>
  );
}

/**
 * One MCU of the "MCU Readings" grid (SPEC §2). It reads one object, its card view, which the core
 * joins (record + live snapshot) and judges (readings outside the profile), so a reading
 * re-renders this card only; within it, only the values and device tiles the reading changed. The
 * list around it (a virtualized grid) gives its list item.
 */
export const McuCard = memo(function McuCard({ mcuId }: { mcuId: number }) {
  const view = useMcuCard(mcuId);
  const connection = useConnection().state;
  // A member whose role may not switch sees the devices' states, their switches disabled, and why.
  const switchRefusal = useMcuRefusal(mcuId, "switchControllers");
  // Its view comes from the core within a frame or two of mounting (in the rows mounted ahead of
  // the screen, before it scrolls in); meanwhile a blank card of the usual size holds its place.
  if (!view) return <div aria-hidden="true" className="card h-full min-h-[35rem] 4xl:min-h-[47.5rem]" />;
  const { online, readings, breaches, pending } = view;
  // Before the first live connection has told anything (a returning farmer's first cards come
  // before it), the badge says Offline as SPEC §9 has it (no reading within 120 s), and the note
  // says the app is waiting rather than that the room never reported.
  const waiting = !online && !readings && (connection === "idle" || connection === "connecting");
  const headingId = `mcu-card-${mcuId}`;
  const lastUpdated = readings?.lastUpdated;
  const updatedText = lastUpdated ? formatReadingTime(lastUpdated) : "";

  return (
    <article aria-labelledby={headingId} className="card h-full p-4 4xl:p-6 flex flex-col gap-3">
      <header className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={headingId} className="font-semibold text-gray-900 4xl:text-2xl break-words">
            {view.name}
          </h3>
          <p className="text-sm 4xl:text-xl text-gray-600 break-words">{view.farmName}</p>
        </div>
        <OnlinePill online={online} />
      </header>
      <div>
        <p className="text-sm 4xl:text-xl text-gray-700">
          <span className="text-gray-500">Profile: </span>
          {view.profileName ?? <span className="text-gray-500 italic">No profile linked</span>}
        </p>
        {view.grow ? (
          <BatchLine grow={view.grow} profileName={view.profileName} className="mt-1 text-sm 4xl:text-xl" />
        ) : (
          view.profileName === null && <BuiltInSettingsNote className="text-xs 4xl:text-lg text-gray-600" />
        )}
      </div>
      {online && readings && <LiveReadings readings={readings} totals={view.sensorTotals} breaches={breaches} />}
      {online && readings && <UnregisteredSensorsNote readings={readings} totals={view.sensorTotals} />}
      {readings && <AttentionNotes readings={readings} breaches={breaches} />}
      {!online && (
        <p className="rounded-lg bg-gray-100 px-3 py-2 text-sm 4xl:text-lg text-gray-600">
          {waiting
            ? "Waiting for live data…"
            : readings
              ? "MCU offline: showing the last known device state. Switching resumes when it reports again."
              : "MCU offline: no device state reported yet."}
        </p>
      )}
      {switchRefusal && <p className="rounded-lg bg-gray-100 px-3 py-2 text-sm 4xl:text-lg text-gray-700">{switchRefusal}</p>}
      <div className="grid grid-cols-2 gap-2 4xl:gap-3">
        {COMMAND_TARGETS.map((target) => {
          const device = readings?.[target];
          return (
            <DeviceTile
              key={target}
              mac={view.mac}
              target={target}
              reported={device !== undefined}
              status={device?.status ?? false}
              auto={device?.auto ?? false}
              pendingStatus={pending?.[pendingKey(target, "status")]}
              pendingAuto={pending?.[pendingKey(target, "auto")]}
              online={online}
              refusal={switchRefusal}
            />
          );
        })}
      </div>
      <div className="mt-auto flex items-center justify-between gap-3">
        <p className="min-w-0 flex-1 text-xs 4xl:text-lg text-gray-500">
          <span className="live-line h-4 4xl:h-7">Last updated: {updatedText ? <time dateTime={lastUpdated}>{updatedText}</time> : "No data"}</span>
        </p>
        <HistoryLink
          to={mcuHistoryPath(mcuId)}
          label={`History of ${view.name}`}
          className="shrink-0 -my-2 -mr-2 inline-flex min-h-11 items-center gap-1 rounded-lg px-2 text-sm 4xl:text-xl font-medium text-brand-700 hover:bg-brand-50 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <ChartIcon /> History
        </HistoryLink>
      </div>
    </article>
  );
});
