import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HISTORY_PATHS } from "../../src/contract/history.ts";
import { UTF8_BOM } from "../history/csv.ts";
import { createPartitions, insertCommand } from "../test-support/history-test-data.ts";
import { createTestServer, type TestClient, type TestServer } from "../test-support/test-server.ts";

/**
 * The edges of the history API: instants outside 1970-01-01 to 9999-12-31 (the database takes no
 * later one; nothing is stored before) and a last bucket rounded up past 9999-12-31 are refused
 * before any byte of an export is sent; a year written with leading zeros is that year, not one
 * of the 1900s; a text cell that hides a formula behind another reader's separator is quoted and
 * defused.
 */

const NOW = Date.parse("2026-06-01T10:30:00Z");

let server: TestServer;
let a: TestClient;
let farmId: number;
let mcuId: number;

const qs = (query: Record<string, string>) => `?${new URLSearchParams(query).toString()}`;

function refused(res: LightMyRequestResponse, message: string | RegExp) {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  expect(res.body).not.toContain(UTF8_BOM);
  const body = res.json() as { code: string; message: string; reason: string };
  // The refusal alone: no CSV, no rows, nothing of the query echoed beyond its reason's values.
  expect(Object.keys(body).filter((k) => k !== "params").sort()).toEqual(["code", "message", "reason"]);
  expect(body.reason).toMatch(/^[a-z_]+$/);
  expect(body.code).toBe("VALIDATION");
  expect(body.message).toMatch(message);
}

/** CSV lines without the BOM and the trailing line end. */
function csvLines(res: LightMyRequestResponse): string[] {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.body.startsWith(UTF8_BOM)).toBe(true);
  expect(res.body.endsWith("\r\n")).toBe(true);
  return res.body.slice(1, -2).split("\r\n");
}

beforeAll(async () => {
  server = await createTestServer({ startAt: NOW });
  a = await server.signUp();
  farmId = (await a.post("/api/farms", { name: "Edge Farm", location: "Byblos", client_id: a.clientId })).json().farm_id;
  mcuId = (await a.post("/api/mcus", { name: "Room E", ...(await a.mcuDevice()), farm_id: farmId, status: "active" })).json().mcu_id;
  await createPartitions(server.db, NOW - 2 * 86_400_000, NOW + 86_400_000);
});
afterAll(() => server?.close());

describe("instants the database cannot take", () => {
  // 9999-12-31T23:00:00-01:00 is 10000-01-01T00:00:00Z: written with four digits, after 9999-12-31 in UTC.
  const AFTER_9999 = "9999-12-31T23:00:00-01:00";
  const BOUNDS = "between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z";
  const FROM = "9999-12-30T00:00:00Z";

  const routes: [string, () => string, Record<string, string>][] = [
    ["MCU history CSV", () => HISTORY_PATHS.mcuHistoryCsv(mcuId), {}],
    ["farm history CSV", () => HISTORY_PATHS.farmHistoryCsv(farmId), { metric: "temperature" }],
    ["timeline CSV", () => HISTORY_PATHS.timelineCsv(mcuId), {}],
    ["commands CSV", () => HISTORY_PATHS.commandsCsv(mcuId), {}],
    ["MCU history", () => HISTORY_PATHS.mcuHistory(mcuId), {}],
    ["farm history", () => HISTORY_PATHS.farmHistory(farmId), { metric: "temperature" }],
    ["timeline", () => HISTORY_PATHS.timeline(mcuId), {}],
    ["commands", () => HISTORY_PATHS.commands(mcuId), {}],
  ];

  it.each(routes)("%s: a to after 9999-12-31 is a 400 before any CSV byte", async (_name, path, extra) => {
    refused(await a.get(`${path()}${qs({ ...extra, from: FROM, to: AFTER_9999 })}`), `to must be ${BOUNDS}`);
  });

  // Read with the two-digit-year quirk, 0075 would be 1975: a range the API takes.
  const beforeEpoch: [string, string][] = [
    ["1970-01-01T00:30:00+01:00", "1970-01-02T00:00:00Z"],
    ["0001-01-01T00:00:00Z", "0001-01-02T00:00:00Z"],
    ["0050-01-01T00:00:00Z", "0050-01-02T00:00:00Z"],
    ["0075-01-01T00:00:00Z", "0075-01-02T00:00:00Z"],
  ];

  it.each(routes)("%s: a from before 1970 is a 400, years with leading zeros included", async (_name, path, extra) => {
    for (const [from, to] of beforeEpoch) refused(await a.get(`${path()}${qs({ ...extra, from, to })}`), `from must be ${BOUNDS}`);
  });

  const bucketed = routes.filter(([name]) => name.includes("history"));

  it.each(bucketed)("%s: a to whose last bucket ends after 9999-12-31 is a 400 naming the latest to", async (_name, path, extra) => {
    const res = await a.get(`${path()}${qs({ ...extra, from: FROM, to: "9999-12-31T23:59:30Z", resolution: "60" })}`);
    refused(res, "With resolution 60 the last bucket would end after 9999-12-31T23:59:59.999Z: to may be 9999-12-31T23:59:00Z at the latest");
  });

  it("the CSV's default resolution (60 s) rounds up past 9999-12-31 too; a to on the last whole bucket is answered", async () => {
    refused(await a.get(`${HISTORY_PATHS.mcuHistoryCsv(mcuId)}${qs({ from: FROM, to: "9999-12-31T23:59:59Z" })}`), /^With resolution 60 the last bucket/);
    refused(await a.get(`${HISTORY_PATHS.farmHistoryCsv(farmId)}${qs({ metric: "co2", from: FROM, to: "9999-12-31T23:59:59Z" })}`), /^With resolution 60 the last bucket/);
    expect(csvLines(await a.get(`${HISTORY_PATHS.mcuHistoryCsv(mcuId)}${qs({ from: FROM, to: "9999-12-31T23:59:00Z", metrics: "co2" })}`))).toEqual(["time,co2_min,co2_avg,co2_max,co2_count"]);
    expect(csvLines(await a.get(`${HISTORY_PATHS.timelineCsv(mcuId)}${qs({ from: FROM, to: "9999-12-31T23:59:59.999Z" })}`))).toEqual(["time,target,status,auto,session"]);
    expect(csvLines(await a.get(`${HISTORY_PATHS.commandsCsv(mcuId)}${qs({ from: "1970-01-01T00:00:00Z", to: "9999-12-31T23:59:59.999Z" })}`))[0]).toMatch(/^time,/);
  });
});

describe("text cells read by a spreadsheet whatever its separator", () => {
  const FORMULA = "zz;=1+cmd|' /C calc'!A0";

  beforeAll(async () => {
    await insertCommand(server.db, { command_id: "c;=2+2", mcu_id: mcuId, client_id: a.clientId, at: "2026-05-31T10:00:00Z", actor: FORMULA });
    await insertCommand(server.db, {
      command_id: "c-refused",
      mcu_id: mcuId,
      client_id: a.clientId,
      at: "2026-05-31T11:00:00Z",
      outcome: "refused",
      reason: "Pump busy;=HYPERLINK(\"http://x\")",
    });
    await insertCommand(server.db, { command_id: "c-plain", mcu_id: mcuId, client_id: a.clientId, at: "2026-05-31T12:00:00Z", outcome: "refused", reason: "Pump busy; try later" });
  });

  it("quotes and defuses the actor, a device's refusal reason and the command id in the commands CSV", async () => {
    const lines = csvLines(await a.get(`${HISTORY_PATHS.commandsCsv(mcuId)}${qs({ from: "2026-05-31T00:00:00Z", to: "2026-06-01T00:00:00Z" })}`));
    expect(lines.slice(1)).toEqual([
      `2026-05-31T10:00:00Z,user,"zz;'=1+cmd|' /C calc'!A0",Irrigation,status,on,acknowledged,,,"c;'=2+2"`,
      `2026-05-31T11:00:00Z,user,grower,Irrigation,status,on,refused,"Pump busy;'=HYPERLINK(""http://x"")",,c-refused`,
      `2026-05-31T12:00:00Z,user,grower,Irrigation,status,on,refused,"Pump busy; try later",,c-plain`,
    ]);
    // Read with `;` as the separator (quotes are honoured only at a cell's start), no cell starts a formula.
    for (const l of lines) for (const cell of l.split(";")) expect(cell).not.toMatch(/^[=+\-@]/);
  });

  it("quotes and defuses an MCU name heading the farm CSV", async () => {
    const farm = (await a.post("/api/farms", { name: "Formula Farm", location: "Tyre", client_id: a.clientId })).json().farm_id as number;
    expect((await a.post("/api/mcus", { name: FORMULA, ...(await a.mcuDevice()), farm_id: farm, status: "active" })).statusCode).toBe(201);
    const lines = csvLines(await a.get(`${HISTORY_PATHS.farmHistoryCsv(farm)}${qs({ metric: "co2", from: "2026-05-31T00:00:00Z", to: "2026-06-01T00:00:00Z" })}`));
    expect(lines[0]).toBe(`time,"zz;'=1+cmd|' /C calc'!A0"`);
  });
});
