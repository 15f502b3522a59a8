import mqtt, { type MqttClient } from "mqtt";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PATHS } from "../../src/contract/api-paths.ts";
import type { RecipeRequest } from "../../src/contract/api.ts";
import type { ProfileConfig } from "../../src/contract/entities.ts";
import type { Batch, ConfigChange, Recipe } from "../../src/contract/grow.ts";
import { TOPICS } from "../../src/contract/mqtt.ts";
import { createPasswordHasher } from "../auth/password.ts";
import type { Database } from "../db/database.ts";
import { mcuLiveRepo } from "../db/mcu-live-repo.ts";
import { migrate } from "../db/migrate.ts";
import { provisionDevices } from "../devices/provisioning.ts";
import { DEFAULT_SESSION } from "../http/session.ts";
import { startSystem, type System } from "../system.ts";
import { openTestDatabase, requester, uniqueMac } from "../test-support/test-server.ts";
import { signUpWithFarm, sleep } from "../test-support/test-system.ts";

const DAY = 86_400_000;
const base: ProfileConfig = {
  irrigation: { on_cycle_hours: 12, off_cycle_liters: 5, soil_moisture_on: 45, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 5000 },
  ac: { based_on: "room_temp", target_temp: 24 },
  humidifier: { humidity_on_below: 90, humidity_off_above: 95 },
};
const withCo2 = (co2: number, temp: number): ProfileConfig => ({ ...base, ventilation: { co2_threshold: co2 }, ac: { based_on: "room_temp", target_temp: temp } });
const recipe: RecipeRequest = {
  name: "Test oyster",
  species: "Oyster",
  phases: [
    { name: "Spawn run", days: 2, confirm: null, config: withCo2(5000, 24) },
    { name: "Pinning", days: 3, confirm: "Pins visible", config: withCo2(700, 16) },
    { name: "Fruiting", days: 2, confirm: null, config: withCo2(800, 18), ramps: [{ setting: "ac.target_temp", to: 20 }] },
  ],
};
const profileConfig = withCo2(1200, 18);

/**
 * The plan runner in the whole server (embedded broker, the server's clock moved by the test):
 * what a device finds retained on its config topic as the plan goes on.
 */
describe("the plan runner", () => {
  const clock = { now: Date.parse("2026-06-01T08:00:00Z") };
  let db: Database;
  let drop: () => Promise<void>;
  let system: System;
  let owner: Awaited<ReturnType<typeof signUpWithFarm>>;
  const probes: MqttClient[] = [];
  const sockets: Socket[] = [];

  const boot = () =>
    startSystem({
      db,
      hasher: createPasswordHasher({ log2N: 10 }),
      http: { host: "127.0.0.1", port: 0, allowedOrigins: ["https://farm.example.com"], session: DEFAULT_SESSION, loginGuard: { perAddressPerMinute: 100_000 } },
      mqtt: { mode: "embedded", host: "127.0.0.1", port: 0 },
      now: () => new Date(clock.now),
      readingsFlushMs: 100,
    });

  beforeAll(async () => {
    ({ db, drop } = await openTestDatabase());
    await migrate(db);
    system = await boot();
    owner = await signUpWithFarm(system.app);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all(probes.map((p) => p.endAsync(true).catch(() => undefined)));
    await system?.close();
    await db?.close();
    await drop?.();
  });

  /**
   * A registered MCU, and a connection as its device that keeps the latest config it was sent.
   * `retained()` connects as the device again (the broker takes one connection per device): what a
   * device connecting now finds retained on its config topic; that connection then goes on watching.
   */
  async function device() {
    const [d] = await provisionDevices(db, [{ mac: uniqueMac(), kind: "mcu", type: null }]);
    const res = await owner.http.post("/api/mcus", { name: `Room ${d!.mac.slice(-5)}`, mac: d!.mac, claim_code: d!.claimCode, farm_id: owner.farmId });
    if (res.statusCode !== 201) throw new Error(res.body);
    const seen = { config: undefined as ProfileConfig | null | undefined, count: 0 };
    let probe: MqttClient | undefined;
    async function connect(): Promise<ProfileConfig | null> {
      if (probe) await probe.endAsync(true);
      probe = await mqtt.connectAsync(system.mqttUrl, { clientId: d!.mac, username: d!.mac, password: d!.key, reconnectPeriod: 0 });
      probes.push(probe);
      const first = new Promise<ProfileConfig | null>((resolve) =>
        probe!.once("message", (_t, payload, packet) => resolve(packet.retain && payload.length > 0 ? JSON.parse(payload.toString()) : null)),
      );
      probe.on("message", (_topic, payload) => {
        seen.config = payload.length > 0 ? (JSON.parse(payload.toString()) as ProfileConfig) : null;
        seen.count++;
      });
      await probe.subscribeAsync(TOPICS.config(d!.mac), { qos: 1 });
      return Promise.race([first, sleep(1000).then(() => null)]);
    }
    await connect();
    return { mac: d!.mac, mcuId: res.json().mcu_id as number, seen, retained: connect };
  }

  /** Waits at most `ms` for `check`; answers how long it took. */
  async function within(ms: number, check: () => boolean | Promise<boolean>, what: string): Promise<number> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${what}`);
      await sleep(25);
    }
    return Date.now() - started;
  }

  const changes = async (mcuId: number) => (await owner.http.get(API_PATHS.mcuConfigChanges(mcuId))).json() as ConfigChange[];
  const batchOf = async (id: number) => ((await owner.http.get(API_PATHS.batches)).json() as Batch[]).find((b) => b.batch_id === id)!;

  it("advances by time and at a waiting phase's maximum, and the device has the new phase's config within 2 s", async () => {
    const dev = await device();
    const r = (await owner.http.post(API_PATHS.recipes, recipe)).json() as Recipe;
    const socket = io(system.url, { transports: ["websocket"], extraHeaders: { cookie: owner.cookie }, reconnection: false, forceNew: true });
    sockets.push(socket);
    const live: Batch[] = [];
    socket.on("batch", (b: Batch) => live.push(b));
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    const authenticated = new Promise((resolve) => socket.once("authenticated", resolve));
    socket.emit("authenticateUser", owner.clientId);
    await authenticated;

    const startedAt = clock.now;
    const batch = (await owner.http.post(API_PATHS.batches, { name: "Run", recipe_id: r.recipe_id, mcu_ids: [dev.mcuId], time_zone: "UTC" })).json() as Batch;
    await within(2000, () => dev.seen.config?.ventilation.co2_threshold === 5000, "the spawn run's config");
    await within(2000, () => live.some((b) => b.batch_id === batch.batch_id), "the started batch reaches the app");

    clock.now = startedAt + 2 * DAY + 5000;
    await within(2000, () => dev.seen.config?.ventilation.co2_threshold === 700, "pinning's config after the spawn run's 2 days");
    expect(await dev.retained()).toEqual(withCo2(700, 16));
    const pinning = await batchOf(batch.batch_id);
    // Moved on at its due time, not when the tick saw it.
    expect(pinning).toMatchObject({ phase_index: 1, phase_started_at: new Date(startedAt + 2 * DAY).toISOString() });
    expect(pinning.events.at(-1)).toMatchObject({ kind: "advance", phase_index: 0, by: null });
    await within(2000, () => live.some((b) => b.batch_id === batch.batch_id && b.phase_index === 1), "the advanced batch reaches the app");

    // Pins never confirmed: the phase moves on at its maximum.
    clock.now = startedAt + 5 * DAY + 1000;
    await within(2000, () => dev.seen.config?.ventilation.co2_threshold === 800, "fruiting's config at pinning's maximum");
    expect((await batchOf(batch.batch_id)).events.at(-1)).toMatchObject({ kind: "maximum", phase_index: 1, at: new Date(startedAt + 5 * DAY).toISOString() });
    expect(dev.seen.config?.ac.target_temp).toBe(18);

    // A ramp step: half way through fruiting, the target is half way from 18 to 20 °C.
    clock.now = startedAt + 6 * DAY;
    await within(2000, () => dev.seen.config?.ac.target_temp === 19, "the ramp's step");
    expect(await dev.retained()).toEqual({ ...withCo2(800, 19) });
    // Nothing more is sent while the rounded value stays.
    const sent = dev.seen.count;
    clock.now += 1000;
    await sleep(1500);
    expect(dev.seen.count).toBe(sent);

    expect((await changes(dev.mcuId)).map((c) => [c.cause, c.batch_id, c.detail, c.config?.ventilation.co2_threshold, c.config?.ac.target_temp])).toEqual([
      ["batch", batch.batch_id, "Fruiting, day 2", 800, 19],
      ["batch", batch.batch_id, "Fruiting, day 1", 800, 18],
      ["batch", batch.batch_id, "Pinning, day 1", 700, 16],
      ["batch", batch.batch_id, "Spawn run, day 1", 5000, 24],
    ]);

    // Past the last phase: the batch ends, and the MCU (no profile) is sent no config.
    clock.now = startedAt + 7 * DAY + 1000;
    await within(2000, () => dev.seen.config === null, "no config once the batch ended");
    expect(await batchOf(batch.batch_id)).toMatchObject({ status: "ended", ended_at: new Date(startedAt + 7 * DAY).toISOString() });
    expect((await changes(dev.mcuId))[0]).toMatchObject({ cause: "none", batch_id: null, config: null });
  });

  it("sets the linked profile aside while a batch runs, and restores it when the batch ends", async () => {
    const dev = await device();
    const r = (await owner.http.post(API_PATHS.recipes, { ...recipe, name: "Aside" })).json() as Recipe;
    const profile = (await owner.http.post("/api/setting-profiles", { name: "House default", client_id: owner.clientId, config: profileConfig })).json();
    await owner.http.post("/api/setting-profiles/link", { mcu_id: dev.mcuId, profile_id: profile.profile_id });
    await within(2000, () => dev.seen.config?.ventilation.co2_threshold === 1200, "the profile's config");

    const batch = (await owner.http.post(API_PATHS.batches, { name: "Aside", recipe_id: r.recipe_id, mcu_ids: [dev.mcuId], time_zone: "UTC" })).json() as Batch;
    await within(2000, () => dev.seen.config?.ventilation.co2_threshold === 5000, "the batch's config");
    // What ingest reads of the MCU (the alarms judge readings against it) is the batch's config, not the set-aside profile's.
    const ingestConfig = async () => (await mcuLiveRepo(db).entryOfMac(dev.mac))?.config;
    await within(2000, async () => (await ingestConfig())?.ventilation.co2_threshold === 5000, "ingest reads the batch's config");
    expect(await ingestConfig()).toEqual(withCo2(5000, 24));
    // Editing the profile does not override the batch.
    await owner.http.put(`/api/setting-profiles/${profile.profile_id}`, { name: "House default", client_id: owner.clientId, config: withCo2(1300, 18) });
    await sleep(500);
    expect(dev.seen.config?.ventilation.co2_threshold).toBe(5000);
    expect(await dev.retained()).toEqual(withCo2(5000, 24));

    await owner.http.post(API_PATHS.batchActions(batch.batch_id), { action: "end" });
    await within(2000, () => dev.seen.config?.ventilation.co2_threshold === 1300, "the profile's config again");
    await within(2000, async () => (await ingestConfig())?.ventilation.co2_threshold === 1300, "ingest reads the profile's config again");
    expect(await ingestConfig()).toEqual(withCo2(1300, 18));
    expect((await changes(dev.mcuId)).map((c) => [c.cause, c.detail, c.config?.ventilation.co2_threshold])).toEqual([
      ["profile", "House default", 1300],
      ["batch", "Spawn run, day 1", 5000],
      ["profile", "House default", 1200],
    ]);
  });

  it("adds no row on a restart, and catches up a phase that ended while the server was down", async () => {
    const dev = await device();
    const r = (await owner.http.post(API_PATHS.recipes, { ...recipe, name: "Restart" })).json() as Recipe;
    const startedAt = clock.now;
    const batch = (await owner.http.post(API_PATHS.batches, { name: "Restart", recipe_id: r.recipe_id, mcu_ids: [dev.mcuId], time_zone: "UTC" })).json() as Batch;
    await within(2000, () => dev.seen.config?.ventilation.co2_threshold === 5000, "the batch's config");
    const before = await changes(dev.mcuId);

    await Promise.all(probes.splice(0).map((p) => p.endAsync(true)));
    await system.close();
    system = await boot();
    owner = { ...owner, http: requester(system.app, owner.cookie) };
    // Sent again to the new (empty) broker, recorded once.
    expect(await dev.retained()).toEqual(withCo2(5000, 24));
    expect(await changes(dev.mcuId)).toEqual(before);

    // Down across the spawn run's end: the next start moves it on at its due time.
    await system.close();
    clock.now = startedAt + 2 * DAY + 60_000;
    system = await boot();
    owner = { ...owner, http: requester(system.app, owner.cookie) };
    await within(2000, async () => (await batchOf(batch.batch_id)).phase_index === 1, "the missed advance");
    expect((await batchOf(batch.batch_id)).events.at(-1)).toMatchObject({ kind: "advance", at: new Date(startedAt + 2 * DAY).toISOString() });
    await within(2000, async () => (await dev.retained())?.ventilation.co2_threshold === 700, "pinning's config after the restart");
    expect((await changes(dev.mcuId)).length).toBe(before.length + 1);
  });
});
