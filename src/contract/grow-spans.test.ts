import { describe, expect, it } from "vitest";
import { batchRecord, DAY, T0 } from "../test-support/batches.ts";
import { batchPhaseSpans } from "./grow.ts";

const iso = (ms: number) => new Date(ms).toISOString();

describe("a batch's phases on the time axis", () => {
  it("plans a just-started batch's phases one after the other by their days", () => {
    const spans = batchPhaseSpans(batchRecord(), T0 + DAY);
    expect(spans.map((s) => [s.phase.name, (s.start - T0) / DAY, (s.end - T0) / DAY, s.planned])).toEqual([
      ["Spawn run", 0, 14, false],
      ["Pinning", 14, 21, true],
      ["Fruiting", 21, 31, true],
    ]);
  });

  it("takes past phases from the events that left them, and a waiting phase lasts until now", () => {
    const b = batchRecord({
      phase_index: 1,
      phase_started_at: iso(T0 + 12 * DAY),
      events: [
        { at: iso(T0), kind: "start", phase_index: 0, reason: null, by: "demo", days: null },
        { at: iso(T0 + 12 * DAY), kind: "skip", phase_index: 0, reason: "Colonised early", by: "demo", days: null },
      ],
    });
    const now = T0 + 20 * DAY;
    const spans = batchPhaseSpans(b, now);
    expect(spans[0]).toMatchObject({ phaseIndex: 0, start: T0, end: T0 + 12 * DAY, planned: false });
    // Pinning's 7 days are up: it waits for "Pins visible", so it reaches now.
    expect(spans[1]).toMatchObject({ phaseIndex: 1, start: T0 + 12 * DAY, end: now, planned: false });
    expect(spans[2]).toMatchObject({ phaseIndex: 2, start: now, end: now + 10 * DAY, planned: true });
  });

  it("ends an ended batch's spans where it ended", () => {
    const b = batchRecord({ status: "ended", ended_at: iso(T0 + 3 * DAY), events: [{ at: iso(T0 + 3 * DAY), kind: "end", phase_index: 0, reason: null, by: "demo", days: null }] });
    const spans = batchPhaseSpans(b, T0 + 10 * DAY);
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ phaseIndex: 0, start: T0, end: T0 + 3 * DAY });
  });
});
