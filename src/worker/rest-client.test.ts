import { describe, expect, it } from "vitest";
import { CoreError } from "../contract/core-error.ts";
import { createRestClient } from "./rest-client.ts";

/** A REST client whose fetch answers `body` and records the URLs asked for. */
function clientAnswering(body: unknown, status = 200) {
  const urls: string[] = [];
  const fetch = (async (input: RequestInfo | URL) => {
    urls.push(String(input));
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  }) as typeof globalThis.fetch;
  return { rest: createRestClient({ apiBase: "https://farm.example", fetch }), urls };
}

const FROM = "2026-03-10T10:00:00.000Z";
const TO = "2026-03-10T12:00:00.000Z";
const series = { min: [18, 19], avg: [18.5, 19.5], max: [19, 20], count: [6, 6] };

describe("the history calls of the data core", () => {
  it("asks an MCU's history with its range, metrics and resolution, and answers the validated columns", async () => {
    const answer = { mcu_id: 4, from: FROM, to: TO, resolution: 60, t: [1, 2], series: { temperature: series } };
    const { rest, urls } = clientAnswering(answer);
    expect(await rest.mcuHistory(4, { from: FROM, to: TO, metrics: ["temperature", "co2"], resolution: 60 })).toEqual(answer);
    const url = new URL(urls[0]!);
    expect(url.pathname).toBe("/api/mcus/4/history");
    expect(Object.fromEntries(url.searchParams)).toEqual({ from: FROM, to: TO, metrics: "temperature,co2", resolution: "60" });
  });

  it("refuses an answer whose columns do not line up with its times", async () => {
    const { rest } = clientAnswering({ mcu_id: 4, from: FROM, to: TO, resolution: 60, t: [1, 2, 3], series: { temperature: series } });
    const err = await rest.mcuHistory(4, { from: FROM, to: TO }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoreError);
    expect((err as CoreError).code).toBe("BAD_RESPONSE");
    expect((err as CoreError).message).toContain("temperature.min has 2 values for 3 times");
  });

  it("refuses a farm comparison that is not one, and a line shorter than the time axis", async () => {
    const farm = { farm_id: 2, metric: "humidity", from: FROM, to: TO, resolution: 60, t: [1, 2], mcus: [{ mcu_id: 1, name: "Room A", mac: "AA", avg: [88, null], count: [6, 0] }] };
    const ok = clientAnswering(farm);
    expect(await ok.rest.farmHistory(2, { metric: "humidity", from: FROM, to: TO })).toEqual(farm);
    expect(new URL(ok.urls[0]!).searchParams.get("metric")).toBe("humidity");
    const short = clientAnswering({ ...farm, mcus: [{ ...farm.mcus[0], avg: [88] }] });
    await expect(short.rest.farmHistory(2, { metric: "humidity", from: FROM, to: TO })).rejects.toMatchObject({ code: "BAD_RESPONSE" });
    const shortCounts = clientAnswering({ ...farm, mcus: [{ ...farm.mcus[0], count: [6] }] });
    await expect(shortCounts.rest.farmHistory(2, { metric: "humidity", from: FROM, to: TO })).rejects.toMatchObject({ code: "BAD_RESPONSE" });
    const unknownMetric = clientAnswering({ ...farm, metric: "wind" });
    await expect(unknownMetric.rest.farmHistory(2, { metric: "humidity", from: FROM, to: TO })).rejects.toMatchObject({ code: "BAD_RESPONSE" });
  });

  it("pages the command log with only the filters that are set", async () => {
    const entry = { command_id: "c1", mcu_id: 4, source: "user", actor: "demo", target: "AC", type: "status", on_off: true, at: TO, outcome: "refused", reason: "Automation is on", answered_at: TO, why: null };
    const { rest, urls } = clientAnswering({ mcu_id: 4, entries: [entry], next_before: "abc" });
    const page = await rest.commandLog(4, { from: FROM, source: "user", outcome: undefined, target: "AC", limit: 25, before: "xyz" });
    expect(page.entries[0]!.reason).toBe("Automation is on");
    expect(Object.fromEntries(new URL(urls[0]!).searchParams)).toEqual({ from: FROM, source: "user", target: "AC", limit: "25", before: "xyz" });
  });

  it("gives the server's 400 message for a bad range", async () => {
    const { rest } = clientAnswering({ code: "VALIDATION", message: "from must be before to" }, 400);
    await expect(rest.mcuTimeline(4, { from: TO, to: FROM })).rejects.toMatchObject({ code: "VALIDATION", serverMessage: "from must be before to", status: 400 });
  });

  it("keeps the fields a refusal names, so a form can show each message at its field", async () => {
    const errors = [{ path: "shifts.0.client_id", message: "Choose a member of this farm who is not a Viewer" }, { path: 3, message: "not a path" }];
    const { rest } = clientAnswering({ code: "VALIDATION", message: "Only the farm's members who can acknowledge alarms can be on call", errors }, 400);
    await expect(rest.saveFarmRota(1, { time_zone: "UTC", repeat_minutes: 5, escalate_minutes: 15, shifts: [] })).rejects.toMatchObject({
      code: "VALIDATION",
      fieldErrors: [{ path: "shifts.0.client_id", message: "Choose a member of this farm who is not a Viewer" }],
    });
  });

  it("keeps a refusal's reason and its values (and each field's) for the app to translate, and drops a reason it does not know", async () => {
    const body = {
      code: "CONFLICT",
      message: "This farm still has 2 MCUs. Move or delete them first.",
      reason: "farm_has_mcus",
      params: { count: 2, nested: { no: 1 } },
      errors: [{ path: "name", message: "Name must be at most 50 characters", reason: "too_long", params: { max: 50 } }],
    };
    const { rest } = clientAnswering(body, 409);
    await expect(rest.saveFarmRota(1, { time_zone: "UTC", repeat_minutes: 5, escalate_minutes: 15, shifts: [] })).rejects.toMatchObject({
      code: "CONFLICT",
      reason: "farm_has_mcus",
      params: { count: 2 },
      fieldErrors: [{ path: "name", reason: "too_long", params: { max: 50 } }],
    });
    const newer = clientAnswering({ code: "CONFLICT", message: "Something a newer server says", reason: "not_yet_known" }, 409).rest;
    await expect(newer.saveFarmRota(1, { time_zone: "UTC", repeat_minutes: 5, escalate_minutes: 15, shifts: [] })).rejects.toMatchObject({ reason: null, serverMessage: "Something a newer server says" });
  });
});
