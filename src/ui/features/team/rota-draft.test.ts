import { beforeAll, describe, expect, it } from "vitest";
import { emptyRota } from "../../../contract/rota-values.ts";
import { startTexts } from "../../../test-support/i18n.ts";
import { i18n } from "../../i18n/i18n.ts";
import { draftOf, endsNextDay, errorsOfRefusal, fieldOfPath, moveShift, newShift, requestOf } from "./rota-draft.ts";

beforeAll(() => startTexts());

describe("the on-call rota form", () => {
  it("starts a farm without a rota in the browser's time zone, and a saved one in its own", () => {
    expect(draftOf(emptyRota(3), "Asia/Beirut")).toMatchObject({ time_zone: "Asia/Beirut", repeat: "5", escalate: "15", shifts: [] });
    const saved = { ...emptyRota(3), time_zone: "UTC", shifts: [{ client_id: 4, days: [5, 1], start: "22:00", end: "06:00" }] };
    expect(draftOf(saved, "Asia/Beirut")).toMatchObject({ time_zone: "UTC", shifts: [{ client_id: 4, days: [1, 5], start: "22:00", end: "06:00" }] });
  });

  it("sends the shifts in their order, and refuses a shift without a person or minutes that are not a number", () => {
    const t = i18n.getFixedT("en", "team");
    const draft = { time_zone: " Europe/Paris ", repeat: "5", escalate: "15", shifts: [{ ...newShift(), client_id: 4 }] };
    expect(requestOf(t, draft)).toEqual({ request: { time_zone: "Europe/Paris", repeat_minutes: 5, escalate_minutes: 15, shifts: [{ client_id: 4, days: [1, 2, 3, 4, 5], start: "08:00", end: "18:00" }] } });
    expect(requestOf(t, { ...draft, repeat: "", escalate: "2.5", shifts: [newShift()] })).toEqual({
      errors: {
        repeat_minutes: "Repeat must be a whole number of minutes from 1 to 60",
        escalate_minutes: "Escalation must be a whole number of minutes from 1 to 240",
        "shifts.0.client_id": "Choose who is on call",
      },
    });
  });

  it("puts each of the server's messages at the field its path names", () => {
    expect(fieldOfPath("shifts.0.client_id")).toBe("shifts.0.client_id");
    expect(fieldOfPath("shifts.2.days.1")).toBe("shifts.2.days");
    expect(fieldOfPath("repeat_minutes")).toBe("repeat_minutes");
    expect(fieldOfPath("shifts")).toBe("shifts");
    expect(fieldOfPath("color")).toBe("form");
    const message = "Only the farm's members who can acknowledge alarms can be on call";
    expect(errorsOfRefusal([{ path: "shifts.1.client_id", message: "Choose a member of this farm who is not a Viewer" }], message)).toEqual({
      "shifts.1.client_id": "Choose a member of this farm who is not a Viewer",
      form: message,
    });
    expect(errorsOfRefusal([{ path: "shifts.0.end", message: "End must be a time of day as HH:MM (24 h), like 22:00" }], "End must be a time of day as HH:MM (24 h), like 22:00")).toEqual({
      "shifts.0.end": "End must be a time of day as HH:MM (24 h), like 22:00",
    });
    expect(errorsOfRefusal([], "A Grower on this farm cannot change the on-call rota")).toEqual({ form: "A Grower on this farm cannot change the on-call rota" });
  });

  it("says a shift runs into the next day when it ends at or before its start", () => {
    expect(endsNextDay("22:00", "06:00")).toBe(true);
    expect(endsNextDay("08:00", "08:00")).toBe(true);
    expect(endsNextDay("08:00", "18:00")).toBe(false);
  });

  it("moves a shift up and down, and not past either end", () => {
    const a = { ...newShift(), client_id: 1 };
    const b = { ...newShift(), client_id: 2 };
    const t = i18n.getFixedT("en", "team");
    const draft = { time_zone: "UTC", repeat: "5", escalate: "15", shifts: [a, b] };
    expect(moveShift(draft, 1, -1).shifts).toEqual([b, a]);
    expect(moveShift(draft, 0, -1)).toBe(draft);
    expect(moveShift(draft, 1, 1)).toBe(draft);
  });
});
