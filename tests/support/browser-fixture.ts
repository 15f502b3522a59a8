import type { BrowserCommand } from "vitest/node";
import { createPasswordHasher } from "../../server/auth/password.ts";
import type { Database } from "../../server/db/database.ts";
import { migrate } from "../../server/db/migrate.ts";
import { provisionDevices, randomMac } from "../../server/devices/provisioning.ts";
import { DEFAULT_SESSION } from "../../server/http/session.ts";
import { SimulatedMcu } from "../../server/simulator/simulated-mcu.ts";
import { startSystem, type System } from "../../server/system.ts";
import { openTestDatabase, registration } from "../../server/test-support/test-server.ts";
import { seedFleet } from "../../bench/browser/fleet-seed.ts";
import type { LargeFleet, LiveFixture } from "./browser-commands.d.ts";

/**
 * The real server for browser-mode tests, on a fixed loopback port that the browser project's
 * Vite server proxies /api and /socket.io to (so the page, its worker and the API share an origin).
 * Lives in the Vitest main process; the tests drive it through browser commands.
 */
interface Fixture {
  db: Database;
  drop(): Promise<void>;
  system: System;
  port: number;
  devices: SimulatedMcu[];
}

const state = globalThis as typeof globalThis & { __browserFixture?: Fixture };

async function boot(db: Database, port: number, mqttPort = 0): Promise<System> {
  return startSystem({
    db,
    hasher: createPasswordHasher({ log2N: 10 }),
    http: { host: "127.0.0.1", port, allowedOrigins: [], session: DEFAULT_SESSION, loginGuard: { perAddressPerMinute: 100_000 } },
    mqtt: { mode: "embedded", host: "127.0.0.1", port: mqttPort },
    coalesceMs: 10,
    readingsFlushMs: 100,
  });
}

export async function startBrowserFixture(port: number): Promise<void> {
  const { db, drop } = await openTestDatabase();
  await migrate(db);
  state.__browserFixture = { db, drop, system: await boot(db, port), port, devices: [] };
}

export async function stopBrowserFixture(): Promise<void> {
  const f = state.__browserFixture;
  if (!f) return;
  await Promise.all(f.devices.map((d) => d.stop()));
  await f.system.close();
  await f.db.close();
  await f.drop();
  state.__browserFixture = undefined;
}

function fixture(): Fixture {
  if (!state.__browserFixture) throw new Error("browser fixture not started (globalSetup)");
  return state.__browserFixture;
}



/** A client with a farm and `count` registered MCUs whose simulated devices are connected. */
const seedLiveFixture: BrowserCommand<[count?: number], LiveFixture> = async (_ctx, count = 2) => {
  const f = fixture();
  const reg = registration();
  await f.system.app.inject({ method: "POST", url: "/api/clients", payload: reg });
  const login = await f.system.app.inject({ method: "POST", url: "/api/clients/login", payload: { username: reg.username, password: reg.password } });
  const cookie = String(login.headers["set-cookie"]).split(";")[0]!;
  const clientId = login.json().client.client_id;
  const headers = { cookie, "content-type": "application/json" };
  const farm = (await f.system.app.inject({ method: "POST", url: "/api/farms", headers, payload: { name: "Browser farm", location: "Chromium", client_id: clientId } })).json();
  const provisioned = await provisionDevices(f.db, Array.from({ length: count }, () => ({ mac: randomMac(), kind: "mcu" as const, type: null })));
  for (const [i, d] of provisioned.entries()) {
    await f.system.app.inject({ method: "POST", url: "/api/mcus", headers, payload: { name: `Room ${i + 1}`, mac: d.mac, claim_code: d.claimCode, farm_id: farm.farm_id } });
    const sim = new SimulatedMcu({ url: f.system.mqttUrl, device: { mac: d.mac, key: d.key, counts: { DHT: 1, SOIL_TEMP: 1, CO2: 1, MOISTURE: 1 }, seed: i + 1 }, keepalive: 2, exact: true });
    f.devices.push(sim);
    await sim.start();
  }
  return { username: reg.username, password: reg.password, macs: provisioned.map((d) => d.mac) };
};

/** Makes a simulated device report a given humidity now. */
const publishReading: BrowserCommand<[mac: string, humidity: number], void> = async (_ctx, mac, humidity) => {
  const sim = fixture().devices.find((d) => d.mac === mac);
  if (!sim) throw new Error(`no simulated device ${mac}`);
  sim.room.humidity = humidity;
  sim.report();
};

/** The client of the large fleet, for pushReading. */
let largeFleetClient: number | null = null;

/** `count` MCUs with sensors, controllers and profiles, inserted in bulk (the browser bench's seed). */
const seedLargeFleet: BrowserCommand<[count: number], LargeFleet> = async (_ctx, count) => {
  const f = fixture();
  const fleet = await seedFleet(f.system.app, f.db, count, 0, "browser");
  largeFleetClient = fleet.clientId;
  return { username: fleet.username, password: fleet.password, macs: fleet.mcus.map((m) => m.mac) };
};

const pushReading: BrowserCommand<[mac: string, humidity: number], void> = async (_ctx, mac, humidity) => {
  if (largeFleetClient === null) throw new Error("seedLargeFleet first");
  fixture().system.realtime.reading(largeFleetClient, mac, { DHT: { temperature: 18, humidity, count: 1 }, batteryLevel: 80, lastUpdated: new Date().toISOString() });
};

/** Stops the server and starts it again on the same port and database; devices reconnect by themselves. */
const restartServer: BrowserCommand<[], void> = async () => {
  const f = fixture();
  const mqttPort = f.system.broker!.port;
  await f.system.close();
  // The same MQTT port too, so the devices find the broker again.
  f.system = await boot(f.db, f.port, mqttPort);
};

export const browserCommands = { seedLiveFixture, publishReading, restartServer, seedLargeFleet, pushReading };
