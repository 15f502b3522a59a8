import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PATHS } from "../../src/contract/api-paths.ts";
import type { RecipeRequest } from "../../src/contract/api.ts";
import type { Batch, ConfigChange, Recipe } from "../../src/contract/grow.ts";
import { batchesRepo } from "../db/batches-repo.ts";
import { createTestServer, sampleConfig as sampleProfileConfig, seedClientData, type TestClient, type TestServer } from "../test-support/test-server.ts";

const sampleConfig = sampleProfileConfig as RecipeRequest["phases"][number]["config"];

const DAY = 86_400_000;
const recipeBody: RecipeRequest = {
  name: "Grey oyster",
  species: "Oyster",
  phases: [
    { name: "Spawn run", days: 14, confirm: null, config: sampleConfig },
    { name: "Pinning", days: 5, confirm: "Pins visible", config: sampleConfig },
    { name: "Fruiting", days: 7, confirm: null, config: sampleConfig },
  ],
};

describe("batches", () => {
  let server: TestServer;
  let c: TestClient;
  let other: TestClient;
  let recipe: Recipe;
  const changed: Batch[] = [];
  /** An MCU of `c` in no batch yet. */
  const freshMcu = async (client = c) => (await seedClientData(client)).mcu as { mcu_id: number; name: string };
  const start = async (body: Record<string, unknown>, client = c) => client.post(API_PATHS.batches, { name: "Batch", recipe_id: recipe.recipe_id, time_zone: "Europe/Paris", ...body });
  const started = async (body: Record<string, unknown> = {}) => {
    const res = await start({ mcu_ids: [(await freshMcu()).mcu_id], ...body });
    if (res.statusCode !== 201) throw new Error(res.body);
    return res.json() as Batch;
  };
  const act = (b: Batch, body: unknown) => c.post(API_PATHS.batchActions(b.batch_id), body);

  beforeAll(async () => {
    server = await createTestServer({ events: { batchChanged: (_clientId, b) => changed.push(b) } });
    c = await server.signUp();
    other = await server.signUp();
    recipe = (await c.post(API_PATHS.recipes, recipeBody)).json();
  });
  afterAll(() => server.close());

  it("starts the recipe's current version on the client's MCUs, now", async () => {
    const a = await freshMcu();
    const b = await freshMcu();
    const res = await start({ name: "Bags 1-40", mcu_ids: [b.mcu_id, a.mcu_id] });
    expect(res.statusCode, res.body).toBe(201);
    const batch = res.json() as Batch;
    const now = new Date(server.clock.now).toISOString();
    expect(batch).toMatchObject({
      client_id: c.clientId,
      name: "Bags 1-40",
      recipe_id: recipe.recipe_id,
      recipe_name: "Grey oyster",
      recipe_version: 1,
      mcu_ids: [a.mcu_id, b.mcu_id].sort((x, y) => x - y),
      time_zone: "Europe/Paris",
      started_at: now,
      status: "running",
      phase_index: 0,
      phase_started_at: now,
      extra_days: 0,
      held_ms: 0,
      held_since: null,
      ended_at: null,
      substrate_dry_kg: null,
      harvests: [],
    });
    expect(batch.events).toEqual([{ at: now, kind: "start", phase_index: 0, reason: null, by: c.registration.username, days: null }]);
    expect(changed.at(-1)).toEqual(batch);

    // Each MCU is in at most one running batch.
    const again = await start({ name: "Second", mcu_ids: [a.mcu_id] });
    expect(again.statusCode).toBe(409);
    const inBatch = { message: `${a.name} is already in batch Bags 1-40`, reason: "mcu_in_batch", params: { mcu: a.name, batch: "Bags 1-40" } };
    // The MCUs' field is named, for the app to show the refusal there.
    expect(again.json()).toEqual({ code: "CONFLICT", ...inBatch, errors: [{ path: "mcu_ids", ...inBatch }] });
  });

  it("catches up a batch started last week: the phases whose time is over ended at their time", async () => {
    const startedAt = new Date(server.clock.now - 16 * DAY).toISOString();
    const batch = await started({ started_at: startedAt });
    expect(batch).toMatchObject({ started_at: startedAt, phase_index: 1, status: "running" });
    // 14 local days in Paris, where the start (mid-May) and the end are both in summer time.
    expect(batch.phase_started_at).toBe(new Date(Date.parse(startedAt) + 14 * DAY).toISOString());
    expect(batch.events.map((e) => [e.kind, e.phase_index, e.at, e.by])).toEqual([
      ["start", 0, startedAt, c.registration.username],
      ["advance", 0, batch.phase_started_at, null],
    ]);
    // Started so long ago that every phase is over: it ended, and its MCU is free again.
    const old = await started({ started_at: new Date(server.clock.now - 60 * DAY).toISOString() });
    expect(old).toMatchObject({ status: "ended", phase_index: 2 });
    expect(old.events.map((e) => e.kind)).toEqual(["start", "advance", "maximum", "advance"]);
    expect((await start({ mcu_ids: old.mcu_ids })).statusCode).toBe(201);
  });

  it("refuses a start more than a day ahead, a missing recipe or MCU, another client's", async () => {
    const mcu = await freshMcu();
    const ahead = await start({ mcu_ids: [mcu.mcu_id], started_at: new Date(server.clock.now + DAY + 60_000).toISOString() });
    expect(ahead.statusCode).toBe(400);
    expect(ahead.json().message).toBe("Start must be at most a day from now");
    expect((await start({ mcu_ids: [mcu.mcu_id], started_at: new Date(server.clock.now + DAY - 60_000).toISOString() })).statusCode).toBe(201);

    const theirs = await freshMcu(other);
    const mine = await freshMcu();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ mcu_ids: [mine.mcu_id, theirs.mcu_id] }, "MCU not found", "mcu_ids"],
      [{ mcu_ids: [999_999] }, "MCU not found", "mcu_ids"],
      [{ mcu_ids: [mine.mcu_id], recipe_id: 999_999 }, "Recipe not found", "recipe_id"],
    ];
    for (const [body, message, path] of cases) {
      const res = await start(body);
      expect(res.statusCode).toBe(404);
      // The field it is about is named, for the app to show it there.
      expect(res.json()).toMatchObject({ code: "NOT_FOUND", message, errors: [{ path, message }] });
    }
    // Their MCU with their own recipe of the same id: mine is not theirs.
    const res = await start({ mcu_ids: [theirs.mcu_id] }, other);
    const missing = { message: "Recipe not found", reason: "recipe_not_found" };
    expect(res.json()).toEqual({ code: "NOT_FOUND", ...missing, errors: [{ path: "recipe_id", ...missing }] });
  });

  it("refuses bad input on every field with a clear message", async () => {
    const mcu = await freshMcu();
    const ok = { name: "B", recipe_id: recipe.recipe_id, mcu_ids: [mcu.mcu_id], time_zone: "UTC" };
    const cases: [unknown, string][] = [
      [{ ...ok, name: " " }, "Name is required"],
      [{ ...ok, name: undefined }, "Name is required"],
      [{ ...ok, recipe_id: undefined }, "Choose a recipe"],
      [{ ...ok, recipe_id: "x" }, "Recipe must be a positive whole number"],
      [{ ...ok, mcu_ids: [] }, "Choose at least one MCU"],
      [{ ...ok, mcu_ids: [mcu.mcu_id, mcu.mcu_id] }, "An MCU is chosen twice"],
      [{ ...ok, mcu_ids: [-1] }, "MCU must be a positive whole number"],
      [{ ...ok, mcu_ids: Array.from({ length: 501 }, (_, i) => i + 1) }, "A batch runs on at most 500 MCUs"],
      [{ ...ok, time_zone: "Mars/Olympus" }, "Time zone must be an IANA time zone, like Asia/Beirut or UTC"],
      [{ ...ok, time_zone: undefined }, "Time zone is required"],
      [{ ...ok, started_at: "last week" }, "Start must be a date and time"],
      [{ ...ok, started_at: "2026-13-45T99:00:00Z" }, "Start must be a date and time"],
      [{ ...ok, status: "ended" }, "Unknown field: status"],
    ];
    for (const [body, message] of cases) {
      const res = await c.post(API_PATHS.batches, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(res.json().message).toBe(message);
    }

    const batch = await started();
    const actionCases: [unknown, string][] = [
      [{}, "Action is required"],
      [{ action: "pause" }, "Action must be one of confirm, hold, resume, extend, skip, end"],
      [{ action: "extend" }, "Days is required to extend a phase"],
      [{ action: "extend", days: 0 }, "Days must be between 1 and 60"],
      [{ action: "extend", days: 1.5 }, "Days must be a whole number"],
      [{ action: "hold", reason: "x".repeat(501) }, "Reason must be at most 500 characters"],
      [{ action: "hold", who: "me" }, "Unknown field: who"],
    ];
    for (const [body, message] of actionCases) {
      const res = await act(batch, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const harvestCases: [unknown, string][] = [
      [{}, "Fresh weight (kg) is required"],
      [{ fresh_kg: 0 }, "Fresh weight (kg) must be between 0.001 and 100000"],
      [{ fresh_kg: "lots" }, "Fresh weight (kg) must be a number"],
      [{ fresh_kg: 2, at: "yesterday" }, "Harvest time must be a date and time"],
      [{ fresh_kg: 2, note: "x".repeat(501) }, "Note must be at most 500 characters"],
    ];
    for (const [body, message] of harvestCases) {
      const res = await c.post(API_PATHS.batchHarvests(batch.batch_id), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const updateCases: [unknown, string][] = [
      [{ name: "" }, "Name is required"],
      [{ substrate_dry_kg: -1 }, "Substrate dry weight (kg) must be between 0.001 and 100000"],
      [{ substrate_dry_kg: "heavy" }, "Substrate dry weight (kg) must be between 0.001 and 100000"],
      [{ status: "ended" }, "Unknown field: status"],
    ];
    for (const [body, message] of updateCases) {
      const res = await c.put(API_PATHS.batch(batch.batch_id), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    for (const url of ["/api/batches/abc", "/api/batches/0/actions", "/api/batches/1/harvests/x", `/api/mcus/x/config-changes`]) {
      const res = url.includes("harvests/") ? await c.del(url) : url.endsWith("config-changes") ? await c.get(url) : url.endsWith("abc") ? await c.put(url, { name: "B" }) : await c.post(url, { action: "hold" });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toMatch(/id must be a positive whole number$/);
    }
    for (const limit of ["0", "501", "ten", "-1"]) {
      const res = await c.get(`${API_PATHS.mcuConfigChanges(mcu.mcu_id)}?limit=${limit}`);
      expect(res.statusCode, limit).toBe(400);
      expect(res.json().message).toBe("limit must be a whole number between 1 and 500");
    }
  });

  it("holds and resumes, extends, confirms, skips and ends, each an event with who and why", async () => {
    const batch = await started();
    const held = await act(batch, { action: "hold", reason: "Checking for green mould" });
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json()).toMatchObject({ held_since: new Date(server.clock.now).toISOString() });
    const again = await act(batch, { action: "hold" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: "CONFLICT", message: "The batch is already on hold", reason: "batch_on_hold" });
    server.clock.advance(3_600_000);
    const resumed = (await act(batch, { action: "resume" })).json() as Batch;
    expect(resumed).toMatchObject({ held_since: null, held_ms: 3_600_000 });
    expect((await act(batch, { action: "resume" })).json().message).toBe("The batch is not on hold");

    expect((await act(batch, { action: "extend", days: 3, reason: "Slow" })).json()).toMatchObject({ extra_days: 3 });
    expect((await act(batch, { action: "confirm" })).json()).toEqual({ code: "CONFLICT", message: "This phase does not wait for a confirmation", reason: "phase_not_confirmable" });
    const skipped = (await act(batch, { action: "skip" })).json() as Batch;
    expect(skipped).toMatchObject({ phase_index: 1, extra_days: 0, held_ms: 0, phase_started_at: new Date(server.clock.now).toISOString() });
    const confirmed = (await act(batch, { action: "confirm", reason: "Pins on most bags" })).json() as Batch;
    expect(confirmed.phase_index).toBe(2);
    const ended = (await act(batch, { action: "end", reason: "Done" })).json() as Batch;
    expect(ended).toMatchObject({ status: "ended", ended_at: new Date(server.clock.now).toISOString() });
    expect(ended.events.map((e) => [e.kind, e.phase_index, e.reason, e.by, e.days])).toEqual([
      ["start", 0, null, c.registration.username, null],
      ["hold", 0, "Checking for green mould", c.registration.username, null],
      ["resume", 0, null, c.registration.username, null],
      ["extend", 0, "Slow", c.registration.username, 3],
      ["skip", 0, null, c.registration.username, null],
      ["confirm", 1, "Pins on most bags", c.registration.username, null],
      ["end", 2, "Done", c.registration.username, null],
    ]);
    expect(changed.at(-1)).toEqual(ended);
    for (const action of ["hold", "skip", "end", "confirm"]) expect((await act(batch, { action })).json()).toEqual({ code: "CONFLICT", message: "This batch has ended", reason: "batch_ended" });
    // Its MCU is free for the next batch.
    expect((await start({ mcu_ids: batch.mcu_ids })).statusCode).toBe(201);
  });

  it("skipping past the last phase ends the batch", async () => {
    const batch = await started();
    await act(batch, { action: "skip" });
    await act(batch, { action: "confirm" });
    const ended = (await act(batch, { action: "skip" })).json() as Batch;
    expect(ended).toMatchObject({ status: "ended", phase_index: 2 });
  });

  it("records harvests as the next flush, and deletes one (the later ones move up)", async () => {
    const batch = await started();
    const first = await c.post(API_PATHS.batchHarvests(batch.batch_id), { fresh_kg: 12.5, note: "Clean first flush" });
    expect(first.statusCode, first.body).toBe(201);
    await c.post(API_PATHS.batchHarvests(batch.batch_id), { fresh_kg: "8.25", at: "2026-05-31T18:00:00Z" });
    const third = (await c.post(API_PATHS.batchHarvests(batch.batch_id), { fresh_kg: 4 })).json() as Batch;
    expect(third.harvests.map((h) => [h.flush, h.fresh_kg, h.note])).toEqual([
      [1, 12.5, "Clean first flush"],
      [2, 8.25, ""],
      [3, 4, ""],
    ]);
    expect(third.harvests[1]!.at).toBe("2026-05-31T18:00:00.000Z");
    const removed = await c.del(API_PATHS.batchHarvest(batch.batch_id, third.harvests[1]!.harvest_id));
    expect(removed.statusCode).toBe(200);
    expect((removed.json() as Batch).harvests.map((h) => [h.flush, h.fresh_kg])).toEqual([
      [1, 12.5],
      [2, 4],
    ]);
    expect(changed.at(-1)).toEqual(removed.json());
    expect((await c.del(API_PATHS.batchHarvest(batch.batch_id, third.harvests[1]!.harvest_id))).json()).toEqual({ code: "NOT_FOUND", message: "Harvest not found", reason: "harvest_not_found" });
    const updated = (await c.put(API_PATHS.batch(batch.batch_id), { name: "Renamed", substrate_dry_kg: 40 })).json() as Batch;
    expect(updated).toMatchObject({ name: "Renamed", substrate_dry_kg: 40 });
    expect((await c.put(API_PATHS.batch(batch.batch_id), { substrate_dry_kg: null })).json()).toMatchObject({ name: "Renamed", substrate_dry_kg: null });
  });

  it("deletes only an ended batch, and lists running batches first, then the ended ones newest first", async () => {
    const fresh = await server.signUp();
    const own = (await fresh.post(API_PATHS.recipes, recipeBody)).json() as Recipe;
    const mk = async (name: string) => {
      const { mcu } = await seedClientData(fresh);
      return (await fresh.post(API_PATHS.batches, { name, recipe_id: own.recipe_id, mcu_ids: [mcu.mcu_id], time_zone: "UTC" })).json() as Batch;
    };
    const a = await mk("A");
    const b = await mk("B");
    const d = await mk("D");
    const running = await fresh.del(API_PATHS.batch(a.batch_id));
    expect(running.statusCode).toBe(409);
    expect(running.json()).toEqual({ code: "CONFLICT", message: "End the batch before deleting it", reason: "batch_running" });
    await fresh.post(API_PATHS.batchActions(a.batch_id), { action: "end" });
    server.clock.advance(1000);
    await fresh.post(API_PATHS.batchActions(b.batch_id), { action: "end" });
    expect(((await fresh.get(API_PATHS.batches)).json() as Batch[]).map((x) => x.name)).toEqual(["D", "B", "A"]);
    expect((await fresh.del(API_PATHS.batch(a.batch_id))).json()).toEqual({ message: "Batch deleted successfully" });
    expect(((await fresh.get(API_PATHS.batches)).json() as Batch[]).map((x) => x.name)).toEqual(["D", "B"]);
    expect(d.status).toBe("running");
  });

  it("answers another client's batch, harvest and MCU as missing ones", async () => {
    const batch = await started();
    const withHarvest = (await c.post(API_PATHS.batchHarvests(batch.batch_id), { fresh_kg: 1 })).json() as Batch;
    const notFound = { code: "NOT_FOUND", message: "Batch not found", reason: "batch_not_found" };
    const tries = [
      await other.put(API_PATHS.batch(batch.batch_id), { name: "Mine now" }),
      await other.del(API_PATHS.batch(batch.batch_id)),
      await other.post(API_PATHS.batchActions(batch.batch_id), { action: "end" }),
      await other.post(API_PATHS.batchHarvests(batch.batch_id), { fresh_kg: 1 }),
      await other.del(API_PATHS.batchHarvest(batch.batch_id, withHarvest.harvests[0]!.harvest_id)),
    ];
    for (const res of tries) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    expect(((await other.get(API_PATHS.batches)).json() as Batch[]).some((b) => b.batch_id === batch.batch_id)).toBe(false);
    const theirs = await other.get(API_PATHS.mcuConfigChanges(batch.mcu_ids[0]!));
    expect(theirs.json()).toEqual({ code: "NOT_FOUND", message: "MCU not found", reason: "mcu_not_found" });
    expect((await c.get(API_PATHS.batches)).json().find((b: Batch) => b.batch_id === batch.batch_id)).toMatchObject({ status: "running", harvests: [{ fresh_kg: 1 }] });
  });

  it("lists an MCU's config changes, the latest first, at most `limit`", async () => {
    const mcu = await freshMcu();
    const repo = batchesRepo(server.db);
    for (const [i, detail] of ["Pinning, day 1", "Pinning, day 2", "Fruiting, day 1"].entries()) {
      await repo.recordConfigChange({ mcu_id: mcu.mcu_id, at: new Date(server.clock.now + i * 1000), cause: "batch", batch_id: null, detail, config: { ...sampleConfig, ventilation: { co2_threshold: 700 + i } } as never });
    }
    const all = (await c.get(API_PATHS.mcuConfigChanges(mcu.mcu_id))).json() as ConfigChange[];
    expect(all.map((x) => x.detail)).toEqual(["Fruiting, day 1", "Pinning, day 2", "Pinning, day 1"]);
    expect(all[0]).toMatchObject({ cause: "batch", batch_id: null, config: { ventilation: { co2_threshold: 702 } } });
    expect(((await c.get(`${API_PATHS.mcuConfigChanges(mcu.mcu_id)}?limit=2`)).json() as ConfigChange[]).length).toBe(2);
  });

  it("refuses requests without a session", async () => {
    for (const [method, url] of [
      ["GET", API_PATHS.batches],
      ["POST", API_PATHS.batches],
      ["PUT", API_PATHS.batch(1)],
      ["DELETE", API_PATHS.batch(1)],
      ["POST", API_PATHS.batchActions(1)],
      ["POST", API_PATHS.batchHarvests(1)],
      ["DELETE", API_PATHS.batchHarvest(1, 1)],
      ["GET", API_PATHS.mcuConfigChanges(1)],
    ] as const) {
      const res = await server.app.inject({ method, url, headers: { "content-type": "application/json" }, payload: method === "GET" || method === "DELETE" ? undefined : "{}" });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});
