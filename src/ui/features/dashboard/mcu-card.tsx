import { memo } from "react";
import { isLowBattery, type Breach, type ProfileMetric } from "../../../contract/conditions.ts";
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
import { numberFormat } from "../../i18n/format.ts";
import { i18n, useLocale } from "../../i18n/i18n.ts";
import { DeviceTile } from "./device-tile.tsx";
import { AlertIcon, LiveReadings, limitText, SHOWN_METRICS } from "./live-readings.tsx";
import { formatCount, unregisteredSensors } from "./sensor-totals.ts";

/**
 * The card's words, looked up at each render: a card re-renders on a change of language or digits
 * through its one `useLocale()` (a grid of thousands of cards is not given a `useTranslation`
 * subscription each).
 */
const t = i18n.getFixedT(null, "dashboard");

/** The value a breach is about, as its note says it: to a tenth, CO2 in whole ppm. */
const BREACH_VALUE: Record<ProfileMetric, { read: (r: LiveReading) => number | undefined; digits: number }> = {
  temperature: { read: (r) => r.DHT?.temperature, digits: 1 },
  humidity: { read: (r) => r.DHT?.humidity, digits: 1 },
  soilTemperature: { read: (r) => r.SOIL_TEMP?.soil_temperature, digits: 1 },
  co2: { read: (r) => r.CO2?.co2, digits: 0 },
  soilMoisture: { read: (r) => r.MOISTURE?.soil_moisture, digits: 1 },
};

/** A breach the grid does not show, in a sentence: "Soil moisture is 31%, below 40%." */
function breachNote(breach: Breach, readings: LiveReading): string {
  const { read, digits } = BREACH_VALUE[breach.metric];
  const value = read(readings);
  const limit = numberFormat({ maximumFractionDigits: 2, useGrouping: false }).format(breach.threshold);
  // A breach is judged from this reading, so its value is there; a dash only guards the type.
  const shown = value === undefined ? "—" : numberFormat({ maximumFractionDigits: digits, useGrouping: false }).format(value);
  return t(`attention.${breach.metric}`, { value: shown, limit });
}

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
      {t("card.unregistered", { count })}
    </p>
  );
}

/**
 * What needs the farmer's attention beyond the marked values: a low battery (SPEC §9: below 30),
 * and a reading outside the profile that the grid does not show (soil moisture).
 */
function AttentionNotes({ readings, breaches }: { readings: LiveReading; breaches: readonly Breach[] }) {
  const notes: string[] = [];
  if (isLowBattery(readings)) notes.push(t("card.batteryLow", { level: formatCount(Math.round(readings.batteryLevel!)) }));
  for (const b of breaches) if (!SHOWN_METRICS.has(b.metric)) notes.push(breachNote(b, readings));
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
  const { tag } = useLocale();
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
          <span className="text-gray-500">{t("card.profile")} </span>
          {view.profileName ?? <span className="text-gray-500 italic">{t("card.noProfile")}</span>}
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
          {waiting ? t("card.waiting") : readings ? t("card.offlineLastState") : t("card.offlineNoState")}
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
              tag={tag}
            />
          );
        })}
      </div>
      <div className="mt-auto flex items-center justify-between gap-3">
        <p className="min-w-0 flex-1 text-xs 4xl:text-lg text-gray-500">
          <span className="live-line h-4 4xl:h-7">
            {t("card.lastUpdated")} {updatedText ? <time dateTime={lastUpdated}>{updatedText}</time> : t("card.noData")}
          </span>
        </p>
        <HistoryLink
          to={mcuHistoryPath(mcuId)}
          label={t("card.historyOf", { name: view.name })}
          className="shrink-0 -my-2 -me-2 inline-flex min-h-11 items-center gap-1 rounded-lg px-2 text-sm 4xl:text-xl font-medium text-brand-700 hover:bg-brand-50 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <ChartIcon /> {t("card.history")}
        </HistoryLink>
      </div>
    </article>
  );
});
