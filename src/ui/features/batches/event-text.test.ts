import { describe, expect, it } from "vitest";
import type { BatchEvent } from "../../../contract/grow.ts";
import { OYSTER_PHASES } from "../../../test-support/batches.ts";
import { eventText } from "./event-text.ts";
import { startTexts } from "../../../test-support/i18n.ts";

// The texts are the catalogue's, in English.
await startTexts();

const event = (kind: BatchEvent["kind"], phase_index: number, days: number | null = null): BatchEvent => ({ at: "", kind, phase_index, reason: null, by: null, days });
const batch = { phases: OYSTER_PHASES };

describe("eventText", () => {
  it("tells the plan's own steps from a grower's actions", () => {
    expect(eventText(event("advance", 0), batch)).toBe("Plan: Spawn run ended");
    expect(eventText(event("maximum", 1), batch)).toBe("Plan: Pinning reached its 7 days without “Pins visible”");
    expect(eventText(event("confirm", 1), batch)).toBe("Confirmed “Pins visible”");
  });

  it("says how many days an extension added", () => {
    expect(eventText(event("extend", 2, 1), batch)).toBe("Extended by 1 day");
    expect(eventText(event("extend", 2, 3), batch)).toBe("Extended by 3 days");
  });

  it("speaks the reader's language, each count in its plural form and digits", async () => {
    await startTexts({ language: "ar", digits: "arab" });
    try {
      expect(eventText(event("extend", 2, 2), batch)).toBe("مُدّدت يومين");
      expect(eventText(event("extend", 2, 3), batch)).toBe("مُدّدت ٣ أيام");
      expect(eventText(event("extend", 2, 11), batch)).toBe("مُدّدت ١١ يومًا");
      await startTexts({ language: "fr", digits: "latn" });
      expect(eventText(event("advance", 0), batch)).toBe("Plan\u00a0: fin de Spawn run");
    } finally {
      await startTexts();
    }
  });
});
