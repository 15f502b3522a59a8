import { describe, expect, it } from "vitest";
import { actorOf, describeCommand, outcomeText } from "./command-labels.ts";

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
});
