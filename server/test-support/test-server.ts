import { randomBytes } from "node:crypto";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import pg from "pg";
import { buildApp, type AppConfig } from "../app.ts";
import { createPasswordHasher } from "../auth/password.ts";
import { withBackgroundLane } from "../db/background-lane.ts";
import { openPglite, openPostgres, type Database, type PlainDatabase } from "../db/database.ts";
import { openPgliteThread } from "../db/pglite-thread.ts";
import { migrate } from "../db/migrate.ts";
import { createEventBus, type EventName, type Handler } from "../events.ts";
import { DEFAULT_SESSION } from "../http/session.ts";
import { provisionDevices } from "../devices/provisioning.ts";

/**
 * Test dependencies. With DATABASE_URL set the server runs on PostgreSQL, each test server in a
 * schema of its own (dropped on close); otherwise on an in-memory PGlite, or PGlite in `dataDir`.
 */
export interface TestServerOptions {
  /** PGlite: keep the database in this folder. */
  dataDir?: string;
  /** PostgreSQL: use (and keep) this schema instead of a throw-away one. */
  schema?: string;
  config?: Partial<AppConfig>;
  /** Handlers of the app's events, subscribed before it serves. */
  events?: { [K in EventName]?: Handler<K> };
  /** Start of the fake clock, epoch ms. */
  startAt?: number;
  /** PGlite: run it in its own thread, as the server does (openPgliteThread). */
  thread?: boolean;
  /**
   * Sees every query as the database runs it, below the background lane (which is laid again over
   * what this returns): when an export's chunk really starts, not when it was queued.
   */
  belowLane?: (db: PlainDatabase) => PlainDatabase;
}

export interface TestServer {
  app: FastifyInstance;
  db: Database;
  clock: { now: number; advance(ms: number): void };
  /** A signed-in client: its id, cookie and request helpers. */
  signUp(overrides?: Partial<Registration>): Promise<TestClient>;
  close(): Promise<void>;
}

export interface Registration {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
  mobile: string;
  country: string;
  address: string;
  /** Sent only when given (an app from before sends neither: English with Western digits). */
  language?: string;
  digits?: string;
}

export interface TestClient {
  clientId: number;
  cookie: string;
  registration: Registration;
  /** A new MCU provisioned in the inventory: its MAC and label claim code, ready to register (POST /api/mcus). */
  mcuDevice(): Promise<McuDevice>;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  del(url: string): Promise<LightMyRequestResponse>;
}

export const onPostgres = Boolean(process.env.DATABASE_URL);

let counter = 0;
export function registration(overrides: Partial<Registration> = {}): Registration {
  const n = `${process.pid}_${++counter}_${randomBytes(3).toString("hex")}`;
  return {
    username: `grower_${n}`,
    email: `grower_${n}@example.com`,
    password: "spores-and-caps",
    confirmPassword: "spores-and-caps",
    mobile: "+961 3 123-456",
    country: "LB",
    address: "12 Cellar Road, Byblos",
    ...overrides,
  };
}

export async function openTestDatabase(dataDir?: string, keepSchema?: string, thread = false): Promise<{ db: Database; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = thread ? await openPgliteThread(dataDir) : await openPglite(dataDir);
    return { db, drop: async () => undefined };
  }
  const schema = keepSchema ?? `t_${process.pid}_${randomBytes(4).toString("hex")}`;
  const db = await openPostgres(url, { schema, max: 4 });
  return {
    db,
    drop: keepSchema ? async () => undefined : () => dropSchema(schema),
  };
}

export async function dropSchema(schema: string): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) return;
  {
    {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  }
}

export async function createTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const opened = await openTestDatabase(options.dataDir, options.schema, options.thread);
  const { drop } = opened;
  const db = options.belowLane ? withBackgroundLane(options.belowLane(opened.db), { yieldToOthers: opened.db.kind === "pglite" }) : opened.db;
  await migrate(db);
  const clock = {
    now: options.startAt ?? Date.parse("2026-06-01T08:00:00Z"),
    advance(ms: number) {
      clock.now += ms;
    },
  };
  const events = createEventBus((msg) => console.error(msg));
  for (const [name, handler] of Object.entries(options.events ?? {})) events.on(name as EventName, handler as Handler<EventName>);
  const app = await buildApp({
    db,
    hasher: createPasswordHasher({ log2N: 10 }),
    now: () => new Date(clock.now),
    events,
    // Tests sign many clients in from one address; the throttling's own tests set the real limit.
    config: { allowedOrigins: ["https://farm.example.com"], session: DEFAULT_SESSION, loginGuard: { perAddressPerMinute: 100_000 }, ...options.config },
  });
  await app.ready();

  async function signUp(overrides: Partial<Registration> = {}): Promise<TestClient> {
    const reg = registration(overrides);
    const created = await app.inject({ method: "POST", url: "/api/clients", payload: reg });
    if (created.statusCode !== 201) throw new Error(`register failed: ${created.statusCode} ${created.body}`);
    const login = await app.inject({ method: "POST", url: "/api/clients/login", payload: { username: reg.username, password: reg.password } });
    if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
    const cookie = cookieOf(login);
    return { clientId: login.json().client.client_id, cookie, registration: reg, mcuDevice: () => provisionMcuDevice(db), ...requester(app, cookie) };
  }

  return {
    app,
    db,
    clock,
    signUp,
    async close() {
      await app.close();
      await db.close();
      await drop();
    },
  };
}

/** `sid=…` from a response's Set-Cookie. */
export function cookieOf(res: LightMyRequestResponse): string {
  const header = res.headers["set-cookie"];
  const first = (Array.isArray(header) ? header : [header]).find((c) => c?.startsWith("sid="));
  if (!first) throw new Error("no session cookie set");
  return first.split(";")[0]!;
}

/** Request helpers that send a cookie and JSON as the app does. */
export function requester(app: FastifyInstance, cookie: string) {
  const send = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: { cookie, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
  return {
    get: (url: string) => send("GET", url),
    post: (url: string, body: unknown = {}) => send("POST", url, body),
    put: (url: string, body: unknown = {}) => send("PUT", url, body),
    del: (url: string) => send("DELETE", url),
  };
}

/** What registering an MCU takes from its label: the MAC and the claim code. */
export interface McuDevice {
  mac: string;
  claim_code: string;
}

/** Provisions a new MCU (as a manufacturer would) and answers it with its device key and claim code. */
export async function provisionMcu(db: Database): Promise<McuDevice & { key: string }> {
  const [device] = await provisionDevices(db, [{ mac: uniqueMac(), kind: "mcu", type: null }]);
  return { mac: device!.mac, key: device!.key, claim_code: device!.claimCode! };
}

export async function provisionMcuDevice(db: Database): Promise<McuDevice> {
  const { mac, claim_code } = await provisionMcu(db);
  return { mac, claim_code };
}

/** A syntactically valid MAC unique to this test run. */
export function uniqueMac(): string {
  return Array.from(randomBytes(6), (b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":");
}

export const sampleConfig = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 20, soil_moisture_on: 35, soil_moisture_off: 60 },
  ventilation: { co2_threshold: 1200 },
  ac: { based_on: "room_temp", target_temp: 18 },
  humidifier: { humidity_on_below: 80, humidity_off_above: 92 },
};

/** A farm, an MCU on it, a controller, a sensor, a profile linked to the MCU, for one client. */
export async function seedClientData(c: TestClient) {
  const farm = (await c.post("/api/farms", { name: "Oyster House", location: "Byblos", client_id: c.clientId })).json();
  const device = await c.mcuDevice();
  const mcu = (await c.post("/api/mcus", { name: "Room A", ...device, farm_id: farm.farm_id, status: "active" })).json();
  const controller = (await c.post("/api/controllers", { name: "Mist 1", mac: uniqueMac(), type: "Humidifier", mcu_id: mcu.mcu_id })).json();
  const sensor = (await c.post("/api/sensors", { name: "CO2 left", mac: uniqueMac(), type: "CO2", mcu_id: mcu.mcu_id })).json();
  const profile = (await c.post("/api/setting-profiles", { name: "Pinning", client_id: c.clientId, config: sampleConfig })).json();
  const link = (await c.post("/api/setting-profiles/link", { mcu_id: mcu.mcu_id, profile_id: profile.profile_id })).json();
  for (const [name, v] of Object.entries({ farm, mcu, controller, sensor, profile, link })) {
    if (!v || typeof v !== "object" || "code" in v) throw new Error(`seeding ${name} failed: ${JSON.stringify(v)}`);
  }
  return { farm, mcu, controller, sensor, profile, link, mcuClaimCode: device.claim_code };
}
