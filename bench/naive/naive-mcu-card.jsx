// @ts-check
/**
 * The naive client's MCU card: the fields of the app's dashboard card (src/ui/features/dashboard/
 * mcu-card.tsx) with the same markup and classes, written the plain way: values formatted on
 * every render, plain buttons with role="switch" for the toggles.
 */
import { memo } from "react";
import { io } from "socket.io-client";

/** @typedef {import("../../src/contract/entities.ts").Mcu} Mcu */
/** @typedef {import("../../src/contract/entities.ts").LiveReading} LiveReading */

/** Online iff a reading arrived within 120 s (SPEC), judged at render: the naive client has no clock. */
const FRESH_MS = 120_000;
const TARGETS = /** @type {const} */ (["Irrigation", "AC", "Ventilation", "Humidifier"]);

/**
 * @type {{ label: string, sensorType: "Humidity" | "Soil_temp" | "CO2", read: (r: LiveReading) => { value: number, count: number } | undefined, unit: string, digits: number }[]}
 */
const METRICS = [
  { label: "Temperature", sensorType: "Humidity", read: (r) => r.DHT && { value: r.DHT.temperature, count: r.DHT.count }, unit: "°C", digits: 1 },
  { label: "Humidity", sensorType: "Humidity", read: (r) => r.DHT && { value: r.DHT.humidity, count: r.DHT.count }, unit: "%", digits: 1 },
  { label: "Soil Temperature", sensorType: "Soil_temp", read: (r) => r.SOIL_TEMP && { value: r.SOIL_TEMP.soil_temperature, count: r.SOIL_TEMP.count }, unit: "°C", digits: 1 },
  { label: "CO2", sensorType: "CO2", read: (r) => r.CO2 && { value: r.CO2.co2, count: r.CO2.count }, unit: "ppm", digits: 0 },
];

/** @type {import("socket.io-client").Socket | null} */
let commandSocket = null;

/** Commands go over their own socket (the dashboard's is inside its effect): enough for a naive client. */
function sendCommand(/** @type {string} */ mac, /** @type {string} */ target, /** @type {"auto" | "status"} */ type, /** @type {boolean} */ onOff) {
  commandSocket ??= io({ transports: ["websocket"] });
  commandSocket.emit("sendCommand", { deviceId: mac, type, value: { type, onOff, target } });
}

/**
 * @param {{ target: string, label: string, checked: boolean, disabled: boolean, onChange: (next: boolean) => void }} props
 */
function NaiveSwitch({ target, label, checked, disabled, onChange }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-1" data-disabled={disabled ? "" : undefined}>
      <span className="min-w-0 text-xs sm:text-sm 4xl:text-lg text-gray-700">
        <span className="sr-only">{target} </span>
        {label}
      </span>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-label={`${target} ${label}`}
        disabled={disabled}
        data-checked={checked ? "" : undefined}
        data-disabled={disabled ? "" : undefined}
        onClick={() => onChange(!checked)}
        className="group inline-flex h-11 w-11 4xl:h-16 4xl:w-20 shrink-0 items-center justify-center rounded-full focus:outline-none data-[disabled]:cursor-not-allowed"
      >
        <span className="relative inline-flex h-6 w-11 4xl:h-8 4xl:w-15 items-center rounded-full transition-colors bg-gray-300 group-data-[checked]:bg-brand-600 group-data-[disabled]:opacity-50">
          <span className="inline-block h-4 w-4 4xl:h-6 4xl:w-6 translate-x-1 rounded-full bg-white shadow transition-transform group-data-[checked]:translate-x-6 4xl:group-data-[checked]:translate-x-8" />
        </span>
      </button>
    </div>
  );
}

/**
 * @param {{ mcu: Mcu, readings: LiveReading | null, lastReadingAt: number | null, offline: boolean }} props
 */
function Card({ mcu, readings, lastReadingAt, offline }) {
  const online = !offline && lastReadingAt !== null && Date.now() - lastReadingAt < FRESH_MS;
  /** @type {Record<string, number>} */
  const totals = { CO2: 0, Humidity: 0, Soil_temp: 0, Moisture: 0 };
  for (const s of mcu.sensors) totals[s.type] = (totals[s.type] ?? 0) + 1;
  const profile = mcu.profile_links[0]?.profile.name;
  const headingId = `naive-mcu-${mcu.mcu_id}`;
  const lastUpdated = readings?.lastUpdated;

  return (
    <li>
      <article aria-labelledby={headingId} className="card h-full p-4 4xl:p-6 flex flex-col gap-3">
        <header className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 id={headingId} className="font-semibold text-gray-900 4xl:text-2xl break-words">
              {mcu.name}
            </h3>
            <p className="text-sm 4xl:text-xl text-gray-600 break-words">{mcu.farm.name}</p>
          </div>
          <span
            className={`shrink-0 inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs 4xl:text-lg font-medium ${online ? "bg-brand-100 text-brand-800" : "bg-gray-200 text-gray-700"}`}
          >
            <span className={`w-2 h-2 4xl:w-3 4xl:h-3 rounded-full ${online ? "bg-brand-600" : "bg-gray-500"}`} aria-hidden="true" />
            {online ? "Online" : "Offline"}
          </span>
        </header>
        <p className="text-sm 4xl:text-xl text-gray-700">
          <span className="text-gray-500">Profile: </span>
          {profile ?? <span className="text-gray-500 italic">No profile linked</span>}
        </p>
        {online && readings && (
          <dl className="grid grid-cols-2 gap-2 4xl:gap-3">
            {METRICS.map((m) => {
              const r = m.read(readings);
              const reporting = r?.count ?? 0;
              return (
                <div key={m.label} className="rounded-xl px-3 py-2 4xl:px-4 4xl:py-3 min-w-0 bg-brand-50/60">
                  <dt className="text-xs 4xl:text-lg text-gray-600">{m.label}</dt>
                  <dd className="text-lg 4xl:text-3xl font-semibold tabular-nums text-gray-900">
                    {r ? `${r.value.toLocaleString(undefined, { minimumFractionDigits: m.digits, maximumFractionDigits: m.digits })} ${m.unit}` : "—"}
                  </dd>
                  <dd className="text-xs 4xl:text-base text-gray-500 tabular-nums">
                    {reporting}/{Math.max(reporting, totals[m.sensorType] ?? 0)} sensors
                  </dd>
                </div>
              );
            })}
          </dl>
        )}
        {!online && (
          <p className="rounded-lg bg-gray-100 px-3 py-2 text-sm 4xl:text-lg text-gray-600">
            {readings ? "MCU offline: showing the last known device state." : "MCU offline: no device state reported yet."}
          </p>
        )}
        <div className="grid grid-cols-2 gap-2 4xl:gap-3">
          {TARGETS.map((target) => {
            const device = readings?.[target];
            return (
              <div key={target} role="group" aria-label={target} className="rounded-xl border border-gray-200 bg-gray-50 px-2.5 py-2 sm:px-3 4xl:px-4 4xl:py-3 min-w-0">
                <p className="font-medium text-gray-900 text-sm 4xl:text-xl">{target}</p>
                <div className="mt-1 flex flex-col gap-1 4xl:gap-2">
                  <NaiveSwitch
                    target={target}
                    label="Automation"
                    checked={device?.auto ?? false}
                    disabled={!online || !device}
                    onChange={(next) => sendCommand(mcu.mac, target, "auto", next)}
                  />
                  <NaiveSwitch
                    target={target}
                    label="Status"
                    checked={device?.status ?? false}
                    disabled={!online || !device || device.auto}
                    onChange={(next) => sendCommand(mcu.mac, target, "status", next)}
                  />
                </div>
              </div>
            );
          })}
        </div>
        <p className="mt-auto text-xs 4xl:text-lg text-gray-500">
          Last updated: {lastUpdated ? <time dateTime={lastUpdated}>{new Date(lastUpdated).toLocaleString()}</time> : "No data"}
        </p>
      </article>
    </li>
  );
}

export const NaiveMcuCard = memo(Card);
