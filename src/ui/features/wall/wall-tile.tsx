import { memo } from "react";
import { isLowBattery } from "../../../contract/conditions.ts";
import type { LiveReading } from "../../../contract/entities.ts";
import type { McuCardView } from "../../../contract/live.ts";
import { wallTileState } from "../../../streams/wall.ts";
import { formatReadingTime } from "../../components/dates.ts";
import { AlertIcon, BatteryIcon } from "../../components/icons.tsx";
import { useConnection, useMcuCard } from "../../data/hooks.ts";
import { i18n, useLocale } from "../../i18n/i18n.ts";
import { breachText, formatValue, growText, limitText, metricLabel, orderedBreaches, outOfProfileLine, percentText, WALL_METRICS } from "./wall-text.ts";

/**
 * A tile's words, looked up at each render: a tile re-renders on a change of language or digits
 * through its one `useLocale()` (a wall of hundreds of tiles is not given a `useTranslation`
 * subscription each).
 */
const t = i18n.getFixedT(null, "wall");

/** What the state line says, in full (the line itself may cut it; its title and screen readers get all). */
function stateLine(view: McuCardView, waiting: boolean): { text: string; full: string } {
  const { online, readings, breaches } = view;
  const state = wallTileState(online, readings, breaches.length > 0);
  if (state === "out-of-profile") {
    const texts = orderedBreaches(breaches).map((b) => breachText(b, readings!));
    return { text: outOfProfileLine(texts), full: texts.join("; ") };
  }
  if (state === "offline") {
    const text = waiting ? t("tile.waiting") : readings?.lastUpdated ? t("tile.offlineSince", { time: formatReadingTime(readings.lastUpdated) }) : t("tile.offlineNoData");
    return { text, full: text };
  }
  if (state === "low-battery") {
    const text = t("tile.lowBattery", { level: percentText(readings!.batteryLevel!) });
    return { text, full: text };
  }
  const normal = t("tile.normal");
  return { text: normal, full: normal };
}

/**
 * One MCU on the wall: its name, online or offline, its state in words (and colour), a low
 * battery, and the dashboard card's four readings at a size read from across a room. It reads
 * one object, the MCU's card view, which the core joins and judges (the same data path as the
 * dashboard's cards), so a reading re-renders this tile alone, and within it the values it changed.
 */
export const WallTile = memo(function WallTile({ mcuId }: { mcuId: number }) {
  const view = useMcuCard(mcuId);
  const connection = useConnection().state;
  useLocale();
  // Its record is on its way (the page's ids came first): hold its place.
  if (!view) return <div className="wall-tile" aria-hidden="true" />;
  const { online, readings, breaches } = view;
  const state = wallTileState(online, readings, breaches.length > 0);
  // Before the live connection has told anything, an MCU without a reading is not known to be offline.
  const waiting = !online && !readings && (connection === "idle" || connection === "connecting");
  const line = stateLine(view, waiting);
  const stateId = `wall-state-${mcuId}`;
  const lowBattery = isLowBattery(readings);
  const grow = view.grow && growText(view.grow.place);

  return (
    <article role="group" aria-label={view.name} aria-describedby={stateId} data-state={state} className="wall-tile">
      <header className="wall-tile-head">
        <h3 className="wall-tile-name" title={view.name}>
          {view.name}
        </h3>
        {lowBattery && (
          <span className="wall-tile-badge wall-battery">
            <BatteryIcon />
            <span className="sr-only">{t("tile.battery")}</span>
            {percentText(readings!.batteryLevel!)}
          </span>
        )}
        <span className="wall-tile-badge">
          <span className="wall-dot" aria-hidden="true" />
          {online ? t("tile.online") : t("tile.offline")}
        </span>
      </header>
      {/* The state, and beside it the batch the room follows (its phase and day): the state comes first when space is short. */}
      <div className="wall-tile-line">
        <p id={stateId} className="wall-tile-state" title={line.full}>
          {state === "out-of-profile" && (
            <>
              <AlertIcon className="shrink-0" />
              <span className="sr-only">{t("tile.outOfProfile")} </span>
            </>
          )}
          {/* A line cut short is read out whole. */}
          <span aria-hidden={line.full !== line.text || undefined}>{line.text}</span>
          {line.full !== line.text && <span className="sr-only">{line.full}</span>}
        </p>
        {view.grow && (
          <p className="wall-tile-grow" title={t("tile.growTitle", { batch: view.grow.batchName, phase: grow })}>
            <span className="sr-only">{t("tile.batch", { name: view.grow.batchName })} </span>
            {grow}
          </p>
        )}
      </div>
      <WallValues readings={readings} breaches={view.breaches} />
    </article>
  );
});

/** The four values; the last known ones while offline (dimmed: the state line says how old). */
function WallValues({ readings, breaches }: { readings: LiveReading | null; breaches: McuCardView["breaches"] }) {
  return (
    <dl className="wall-values">
      {WALL_METRICS.map((m) => {
        const value = readings ? m.read(readings) : undefined;
        const breach = value === undefined ? undefined : breaches.find((b) => b.metric === m.metric);
        return (
          <WallCell
            key={m.metric}
            label={metricLabel(m.metric)}
            value={value === undefined ? null : formatValue(value, m.digits)}
            unit={m.unit}
            outside={breach ? t("tile.outsideProfile", { limit: limitText(breach) }) : null}
          />
        );
      })}
    </dl>
  );
}

/** One value, memoized on primitives (its words among them): a reading re-renders only the values it changed. `outside`: the crossed profile limit in words. */
const WallCell = memo(function WallCell({ label, value, unit, outside }: { label: string; value: string | null; unit: string; outside: string | null }) {
  return (
    <div className="wall-cell" data-out-of-profile={outside !== null ? "" : undefined}>
      <dt>
        {outside !== null && <AlertIcon className="shrink-0" />}
        {label}
      </dt>
      <dd className="wall-value">
        {value ?? "—"}
        {/* The unit reads left to right in Arabic too ("°C", not "C°"), after its number. */}
        {value !== null && (
          <span className="wall-unit">
            {" "}
            <bdi dir="ltr">{unit}</bdi>
          </span>
        )}
      </dd>
      {outside !== null && <dd className="sr-only">{outside}</dd>}
    </div>
  );
});
