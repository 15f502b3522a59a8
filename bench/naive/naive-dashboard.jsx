// @ts-check
/**
 * The naive client of `npm run bench:browser`: what a dashboard looks like without a data core.
 * socket.io-client on the main thread, one setState per event (each realtimeData, each
 * deviceStatusUpdate, each entry of a realtimeBatch), the live map copied on every event, and a
 * card mounted for every MCU of the fleet. Cards are memoised, as any careful React code would
 * have them, so what it pays is the design (everything on the main thread, everything mounted),
 * not a missing React.memo. Same fields and same CSS (the app's UnoCSS config) as the app's card.
 */
import { useEffect, useState } from "react";
import { io } from "socket.io-client";
import { NaiveMcuCard } from "./naive-mcu-card.jsx";

/** @typedef {import("../../src/contract/entities.ts").Mcu} Mcu */
/** @typedef {import("../../src/contract/entities.ts").LiveReading} LiveReading */
/** @typedef {import("../../src/contract/realtime.ts").AuthenticatedPayload} AuthenticatedPayload */
/** @typedef {import("../../src/contract/realtime.ts").RealtimeDataPayload} RealtimeDataPayload */
/** @typedef {import("../../src/contract/realtime.ts").DeviceStatusPayload} DeviceStatusPayload */
/** @typedef {import("../../src/contract/realtime.ts").RealtimeBatchPayload} RealtimeBatchPayload */
/** @typedef {{ readings: LiveReading | null, lastReadingAt: number | null, offline: boolean }} LiveEntry */
/** @typedef {Record<string, LiveEntry>} LiveMap */

/** @param {Mcu["readings"]} r */
const readingsOf = (r) => {
  if (r === null || typeof r === "object") return r;
  try {
    return /** @type {LiveReading} */ (JSON.parse(r));
  } catch {
    return null;
  }
};

/** @returns {{ client_id: number } | null} */
function storedClient() {
  try {
    return JSON.parse(localStorage.getItem("client") ?? "null");
  } catch {
    return null;
  }
}

export function NaiveDashboard() {
  const [mcus, setMcus] = useState(/** @type {Mcu[] | null} */ (null));
  const [live, setLive] = useState(/** @type {LiveMap} */ ({}));
  const [error, setError] = useState(/** @type {string | null} */ (null));

  useEffect(() => {
    const client = storedClient();
    if (!client) {
      setError("Not signed in: the client is missing from localStorage.");
      return;
    }
    fetch(`/api/mcus/by-client/${client.client_id}`, { credentials: "same-origin" })
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(`GET /api/mcus/by-client answered ${res.status}`))))
      .then((/** @type {Mcu[]} */ list) => setMcus(list))
      .catch((/** @type {Error} */ err) => setError(err.message));

    /** @param {RealtimeDataPayload} d */
    const reading = (d) =>
      setLive((prev) => ({ ...prev, [d.deviceId]: { readings: d.payload, lastReadingAt: Date.now(), offline: false } }));
    /** @param {DeviceStatusPayload} s */
    const status = (s) =>
      setLive((prev) => ({
        ...prev,
        [s.deviceId]: { readings: prev[s.deviceId]?.readings ?? null, lastReadingAt: prev[s.deviceId]?.lastReadingAt ?? null, offline: s.status !== "online" },
      }));

    // Same origin, so the session cookie set by POST /api/clients/login goes with the handshake.
    const socket = io({ transports: ["websocket"] });
    socket.on("connect", () => socket.emit("authenticateUser", client.client_id));
    socket.on("authenticated", (/** @type {AuthenticatedPayload} */ p) => {
      /** @type {LiveMap} */
      const next = {};
      for (const d of p.devices) {
        const seen = d.lastSeen ? Date.parse(d.lastSeen) : null;
        next[d.deviceId] = { readings: d.readings, lastReadingAt: seen, offline: d.status === "offline" };
      }
      setLive(next);
    });
    socket.on("realtimeData", reading);
    socket.on("deviceStatusUpdate", status);
    socket.on("realtimeBatch", (/** @type {RealtimeBatchPayload} */ b) => {
      for (const s of b.status) status(s);
      for (const d of b.data) reading(d);
    });
    socket.on("unauthorized", () => setError("The server refused the socket."));
    return () => {
      socket.close();
    };
  }, []);

  return (
    <div className="min-h-screen bg-gray-50 lg:flex">
      {/* The app's sidebar, so the grid gets the same width and the same number of columns. */}
      <aside className="hidden lg:flex lg:sticky lg:top-0 lg:h-screen w-64 4xl:w-96 4xl:text-xl bg-brand-900 text-white flex-col px-5 py-4">
        <span className="text-lg font-bold">Mushroom Farm (naive)</span>
      </aside>
      <div className="flex-1 min-w-0 flex flex-col">
        <header className="sticky top-0 z-20 bg-white/90 border-b border-gray-200 flex items-center gap-3 px-4 py-3">
          <h1 className="flex-1 text-xl 4xl:text-3xl font-semibold text-gray-900 truncate">Dashboard</h1>
        </header>
        <main className="flex-1 p-4 sm:p-6 4xl:p-10">
          <section aria-labelledby="mcu-readings-heading" className="flex flex-col gap-3 4xl:gap-4">
            <h2 id="mcu-readings-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
              MCU Readings
            </h2>
            {error && <p role="alert">{error}</p>}
            {mcus === null ? (
              <p>Loading MCUs…</p>
            ) : (
              <ul className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,21rem),1fr))] 4xl:grid-cols-[repeat(auto-fill,minmax(32rem,1fr))] gap-3 sm:gap-4 4xl:gap-6">
                {mcus.map((mcu) => {
                  const entry = live[mcu.mac];
                  return (
                    <NaiveMcuCard
                      key={mcu.mcu_id}
                      mcu={mcu}
                      readings={entry ? entry.readings : readingsOf(mcu.readings)}
                      lastReadingAt={entry ? entry.lastReadingAt : mcu.lastSeen ? Date.parse(mcu.lastSeen) : null}
                      offline={entry?.offline ?? mcu.status === "offline"}
                    />
                  );
                })}
              </ul>
            )}
          </section>
        </main>
      </div>
    </div>
  );
}
