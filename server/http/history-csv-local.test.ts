import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HISTORY_PATHS } from "../../src/contract/history.ts";
import { createPartitions, insertCommand, insertEvent, insertRollup } from "../test-support/history-test-data.ts";
import { createTestServer, type TestClient, type TestServer } from "../test-support/test-server.ts";

/**
 * What a grower opens in a spreadsheet: times in their own zone beside UTC (with `tz`, which the
 * app sends), and readings as the sensors read them, without a 4-byte float's noise.
 */

const NOW = Date.parse("2026-07-02T00:00:00Z");

let server: TestServer;
let a: TestClient;
let farmId: number;
let mcuId: number;

const qs = (query: Record<string, string>) => `?${new URLSearchParams(query).toString()}`;
const range = { from: "2026-07-01T10:00:00Z", to: "2026-07-01T10:02:00Z" };

function csvLines(res: LightMyRequestResponse): string[][] {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res.body
    .slice(1, -2)
    .split("\r\n")
    .map((l) => l.split(","));
}

beforeAll(async () => {
  server = await createTestServer({ startAt: NOW });
  a = await server.signUp();
  farmId = (await a.post("/api/farms", { name: "Local Farm", location: "Byblos", client_id: a.clientId })).json().farm_id;
  mcuId = (await a.post("/api/mcus", { name: "Room L", ...(await a.mcuDevice()), farm_id: farmId, status: "active" })).json().mcu_id;
  await createPartitions(server.db, NOW - 3 * 86_400_000, NOW + 86_400_000);
  // A mean of three samples (99.5, 99.6, 99.9): stored as a 4-byte float, PostgreSQL writes it 99.666664.
  await insertRollup(server.db, "reading_minutes", mcuId, "2026-07-01T10:00:00Z", { humidity: { min: 99.5, avg: 99.666666, max: 99.9, n: 3 }, temperature: { min: 18, avg: 18.05, max: 18.1, n: 3 } });
  await insertRollup(server.db, "reading_minutes", mcuId, "2026-07-01T10:01:00Z", { humidity: { min: 90.1, avg: 90.33, max: 90.6, n: 3 }, temperature: { min: 17.9, avg: 18, max: 18.1, n: 3 } });
  await insertEvent(server.db, mcuId, "2026-07-01T10:00:30Z", "AC", true, true);
  await insertCommand(server.db, { command_id: "c-1", mcu_id: mcuId, client_id: a.clientId, at: "2026-07-01T10:01:30Z", actor: "grower" });
});
afterAll(() => server?.close());

describe("CSV exports in the grower's time zone", () => {
  it("adds local_time after the UTC time of each reading bucket, with the zone's offset that day", async () => {
    const rows = csvLines(await a.get(`${HISTORY_PATHS.mcuHistoryCsv(mcuId)}${qs({ ...range, metrics: "temperature,humidity", tz: "Asia/Beirut" })}`));
    expect(rows[0]!.slice(0, 3)).toEqual(["time", "local_time", "temperature_min"]);
    expect(rows[1]!.slice(0, 2)).toEqual(["2026-07-01T10:00:00Z", "2026-07-01T13:00:00+03:00"]);
    expect(rows[2]!.slice(0, 2)).toEqual(["2026-07-01T10:01:00Z", "2026-07-01T13:01:00+03:00"]);
  });

  it("adds local_time to the farm, timeline and command exports", async () => {
    const farm = csvLines(await a.get(`${HISTORY_PATHS.farmHistoryCsv(farmId)}${qs({ ...range, metric: "humidity", tz: "America/St_Johns" })}`));
    expect(farm[0]).toEqual(["time", "local_time", "Room L"]);
    expect(farm[1]).toEqual(["2026-07-01T10:00:00Z", "2026-07-01T07:30:00-02:30", "99.67"]);
    const timeline = csvLines(await a.get(`${HISTORY_PATHS.timelineCsv(mcuId)}${qs({ ...range, tz: "UTC" })}`));
    expect(timeline[0]).toEqual(["time", "local_time", "target", "status", "auto", "session"]);
    expect(timeline[1]!.slice(0, 3)).toEqual(["2026-07-01T10:00:30Z", "2026-07-01T10:00:30+00:00", "AC"]);
    const commands = csvLines(await a.get(`${HISTORY_PATHS.commandsCsv(mcuId)}${qs({ ...range, tz: "Asia/Kolkata" })}`));
    expect(commands[0]!.slice(0, 3)).toEqual(["time", "local_time", "source"]);
    expect(commands[1]!.slice(0, 2)).toEqual(["2026-07-01T10:01:30Z", "2026-07-01T15:31:30+05:30"]);
  });

  it("writes UTC alone without tz, and refuses a zone that does not exist", async () => {
    const rows = csvLines(await a.get(`${HISTORY_PATHS.mcuHistoryCsv(mcuId)}${qs({ ...range, metrics: "humidity" })}`));
    expect(rows[0]).toEqual(["time", "humidity_min", "humidity_avg", "humidity_max", "humidity_count"]);
    const bad = await a.get(`${HISTORY_PATHS.mcuHistoryCsv(mcuId)}${qs({ ...range, tz: "Mars/Olympus_Mons" })}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: "VALIDATION", message: "tz must be an IANA time zone such as Asia/Beirut or UTC", reason: "invalid_time_zone" });
    // Charts answer in epoch milliseconds: they take no tz.
    expect((await a.get(`${HISTORY_PATHS.mcuHistory(mcuId)}${qs({ ...range, tz: "UTC" })}`)).statusCode).toBe(400);
  });
});

describe("readings in CSV exports", () => {
  it("keeps two decimals, as the sensors read, not the stored float's noise", async () => {
    const rows = csvLines(await a.get(`${HISTORY_PATHS.mcuHistoryCsv(mcuId)}${qs({ ...range, metrics: "temperature,humidity" })}`));
    expect(rows[0]).toEqual(["time", "temperature_min", "temperature_avg", "temperature_max", "temperature_count", "humidity_min", "humidity_avg", "humidity_max", "humidity_count"]);
    expect(rows[1]).toEqual(["2026-07-01T10:00:00Z", "18", "18.05", "18.1", "3", "99.5", "99.67", "99.9", "3"]);
    expect(rows[2]).toEqual(["2026-07-01T10:01:00Z", "17.9", "18", "18.1", "3", "90.1", "90.33", "90.6", "3"]);
  });
});
