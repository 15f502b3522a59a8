import { beforeAll, describe, expect, it } from "vitest";
import { startTexts } from "../../../test-support/i18n.ts";
import { i18n } from "../../i18n/i18n.ts";
import * as labels from "./command-labels.ts";

beforeAll(() => startTexts());
const en = () => i18n.getFixedT("en", "history");
const describeCommand = (e: Parameters<typeof labels.describeCommand>[1]) => labels.describeCommand(en(), e);
const actorOf = (e: Parameters<typeof labels.actorOf>[1]) => labels.actorOf(en(), e);
const outcomeText = (e: Parameters<typeof labels.outcomeText>[1]) => labels.outcomeText(en(), e);
const switchReasonOf = (e: Parameters<typeof labels.switchReasonOf>[1]) => labels.switchReasonOf(en(), e);

describe("the command log's words", () => {
  it("says what was switched", () => {
    expect(describeCommand({ target: "Humidifier", type: "status", on_off: true })).toBe("Humidifier switched on");
    expect(describeCommand({ target: "AC", type: "auto", on_off: false })).toBe("AC automation turned off");
  });

  it("names who did it", () => {
    expect(actorOf({ source: "user", actor: "demo" })).toBe("demo");
    expect(actorOf({ source: "automation", actor: null })).toBe("Device automation");
  });

  it("gives a refusal's or a failure's reason, and no reason for a success", () => {
    expect(outcomeText({ outcome: "refused", reason: "Automation is on" })).toBe("Refused by the device: Automation is on");
    expect(outcomeText({ outcome: "timed_out", reason: null })).toBe("No answer from the device");
    expect(outcomeText({ outcome: "acknowledged", reason: "ok" })).toBe("Done");
    expect(outcomeText({ outcome: "reported", reason: null })).toBe("Done by the automation");
  });

  it("says why a controller was switched: the automation's rule, or who switched it", () => {
    const why = { rule: "humidity_below_on", value: 84.1, limit: 85, inferred: false, phase: "Fruiting, day 3" };
    expect(switchReasonOf({ source: "automation", actor: null, target: "Humidifier", type: "status", on_off: true, why })).toBe("Humidifier on: humidity 84.1 % below 85 % — Fruiting, day 3");
    expect(switchReasonOf({ source: "user", actor: "demo", target: "AC", type: "status", on_off: false, why: null })).toBe("AC off: switched by demo");
    expect(switchReasonOf({ source: "user", actor: "demo", target: "AC", type: "auto", on_off: false, why: null })).toBeNull();
    expect(switchReasonOf({ source: "automation", actor: null, target: "AC", type: "status", on_off: false, why: null })).toBeNull();
  });
});
