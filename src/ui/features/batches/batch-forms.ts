import { z } from "zod";
import { GROW_LIMITS, isTimeZone } from "../../../contract/grow.ts";
import { LIMITS } from "../../../contract/limits.ts";
import { fromDateTimeLocal } from "./zone-dates.ts";

/**
 * The grow-cycle forms for Conform (`parseWithZod`), with the messages the server's request
 * schemas give (src/contract/api.ts), so a field says the same before and after a send. Conform
 * turns an empty field into undefined: "required" is the message for a missing value.
 */

const G = GROW_LIMITS;

const requiredText = (label: string, message: string, max: number) =>
  z.string({ error: message }).trim().min(1, { error: message }).max(max, { error: `${label} must be at most ${max} characters` });
const optionalText = (label: string, max: number) => z.string().trim().max(max, { error: `${label} must be at most ${max} characters` }).optional();

/** A number typed in a field: `required` when empty, "must be a number" when not one, then its range. */
const numberField = (label: string, required: string, min: number, max: number) =>
  z.preprocess(
    (v) => (v === "" || v === undefined ? undefined : Number(v)),
    z
      .number({ error: (issue) => (issue.input === undefined ? required : `${label} must be a number`) })
      .min(min, { error: `${label} must be between ${min} and ${max}` })
      .max(max, { error: `${label} must be between ${min} and ${max}` }),
  );

/** A checkbox group: none ticked is undefined, one a string, several an array. */
const idList = (message: string) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.coerce.number().int().positive()).min(1, { error: message }));

export const startBatchForm = z
  .object({
    name: requiredText("Name", "Name is required", LIMITS.name),
    recipe_id: z.coerce.number({ error: "Choose a recipe" }).int().positive({ error: "Choose a recipe" }),
    mcu_ids: idList("Choose at least one MCU"),
    started_at: z.string({ error: "Start must be a date and time" }),
    time_zone: requiredText("Time zone", "Time zone is required", 64).refine(isTimeZone, { error: "Time zone must be an IANA time zone, like Asia/Beirut or UTC" }),
  })
  // Read in the zone chosen beside it: the start is typed as the room's clock reads.
  .refine((v) => Number.isFinite(fromDateTimeLocal(v.started_at, v.time_zone)), {
    path: ["started_at"],
    error: "Start must be a date and time",
    when: ({ value }) => typeof (value as { time_zone?: unknown }).time_zone === "string" && isTimeZone((value as { time_zone: string }).time_zone),
  });

export const harvestForm = z.object({
  fresh_kg: numberField("Fresh weight (kg)", "Fresh weight (kg) is required", 0.001, G.harvestKg),
  note: optionalText("Note", G.note),
});

const dryWeightMessage = `Substrate dry weight (kg) must be between 0.001 and ${G.harvestKg}`;
/** Empty clears the dry weight (null). */
export const substrateForm = z.object({
  substrate_dry_kg: z.preprocess(
    (v) => (v === "" || v === undefined ? null : Number(v)),
    z.number({ error: dryWeightMessage }).min(0.001, { error: dryWeightMessage }).max(G.harvestKg, { error: dryWeightMessage }).nullable(),
  ),
});

/** An action's reason; extending asks for the days too (the server's "Days is required to extend a phase"). */
export function batchActionForm(extend: boolean) {
  return z
    .object({
      reason: optionalText("Reason", G.reason),
      days: z.preprocess(
        (v) => (v === "" || v === undefined ? undefined : Number(v)),
        z
          .number({ error: "Days must be a number" })
          .min(1, { error: `Days must be between 1 and ${G.extendDays}` })
          .max(G.extendDays, { error: `Days must be between 1 and ${G.extendDays}` })
          .int({ error: "Days must be a whole number" })
          .optional(),
      ),
    })
    .refine((v) => !extend || v.days !== undefined, { path: ["days"], error: "Days is required to extend a phase" });
}
