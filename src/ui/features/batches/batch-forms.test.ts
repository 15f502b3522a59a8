import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { CoreError } from "../../../contract/core-error.ts";
import { batchActionForm, harvestForm, startBatchForm, startFieldOfRefusal, substrateForm } from "./batch-forms.ts";
import { startTexts } from "../../../test-support/i18n.ts";

// The texts are the catalogue's, in English.
await startTexts();

/** The form's errors by field, as Conform shows them under the fields. */
function errorsOf(schema: Parameters<typeof parseWithZod>[1]["schema"], entries: [string, string][]) {
  const data = new FormData();
  for (const [k, v] of entries) data.append(k, v);
  const submission = parseWithZod(data, { schema });
  return submission.status === "error" ? submission.error : null;
}

describe("the grow-cycle forms say what the server says", () => {
  it("asks for a name, a recipe, an MCU and a time zone it knows", () => {
    expect(errorsOf(startBatchForm, [["started_at", "2026-12-02T08:00"], ["time_zone", "Mars/Olympus"]])).toEqual({
      name: ["Name is required"],
      recipe_id: ["Choose a recipe"],
      mcu_ids: ["Choose at least one MCU"],
      time_zone: ["Time zone must be an IANA time zone, like Asia/Beirut or UTC"],
    });
  });

  it("takes several ticked MCUs", () => {
    const entries: [string, string][] = [["name", "Run"], ["recipe_id", "3"], ["mcu_ids", "1"], ["mcu_ids", "2"], ["started_at", "2026-12-02T08:00"], ["time_zone", "UTC"]];
    expect(errorsOf(startBatchForm, entries)).toBeNull();
  });

  it("checks a harvest's weight and an extension's days", () => {
    expect(errorsOf(harvestForm, [])).toEqual({ fresh_kg: ["Fresh weight (kg) is required"] });
    expect(errorsOf(harvestForm, [["fresh_kg", "lots"]])).toEqual({ fresh_kg: ["Fresh weight (kg) must be a number"] });
    expect(errorsOf(harvestForm, [["fresh_kg", "0"]])).toEqual({ fresh_kg: ["Fresh weight (kg) must be between 0.001 and 100000"] });
    expect(errorsOf(batchActionForm(true), [])).toEqual({ days: ["Days is required to extend a phase"] });
    expect(errorsOf(batchActionForm(true), [["days", "61"]])).toEqual({ days: ["Days must be between 1 and 60"] });
    expect(errorsOf(batchActionForm(false), [])).toBeNull();
  });

  it("clears the dry weight when empty and refuses one out of range", () => {
    expect(errorsOf(substrateForm, [])).toBeNull();
    expect(errorsOf(substrateForm, [["substrate_dry_kg", "-1"]])).toEqual({ substrate_dry_kg: ["Substrate dry weight (kg) must be between 0.001 and 100000"] });
  });
});

describe("a refusal of a batch's start", () => {
  // As the data core hands the server's answers on (server/http/batches.test.ts checks their fields).
  const answer = (reason: "mcu_in_batch" | "recipe_not_found" | "out_of_range" | "role_cannot", message: string, path?: string) =>
    new CoreError(reason === "role_cannot" ? "FORBIDDEN" : "CONFLICT", message, 409, message, path ? [{ path, message, reason }] : [], { reason });

  it("is shown at the field the server names, in any language", async () => {
    await startTexts({ language: "fr", digits: "latn" });
    try {
      expect(startFieldOfRefusal(answer("mcu_in_batch", "Tunnel 1 is already in batch Bags", "mcu_ids"))).toBe("mcu_ids");
      expect(startFieldOfRefusal(answer("recipe_not_found", "Recipe not found", "recipe_id"))).toBe("recipe_id");
      expect(startFieldOfRefusal(answer("out_of_range", "MCU must be a positive whole number", "mcu_ids.0"))).toBe("mcu_ids");
    } finally {
      await startTexts();
    }
  });

  it("is the whole form's when the server names no field of it", () => {
    expect(startFieldOfRefusal(answer("role_cannot", "A Viewer cannot manage batches"))).toBeNull();
    expect(startFieldOfRefusal(answer("out_of_range", "x", "status"))).toBeNull();
    expect(startFieldOfRefusal(new Error("Name is required"))).toBeNull();
  });
});
