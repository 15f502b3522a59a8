import { z } from "zod";
import { CoreError } from "../../../contract/core-error.ts";
import { GROW_LIMITS, isTimeZone } from "../../../contract/grow-values.ts";
import { LIMITS } from "../../../contract/limits.ts";
import { numberFormat } from "../../i18n/format.ts";
import { i18n } from "../../i18n/i18n.ts";
import { fromDateTimeLocal } from "./zone-dates.ts";

/**
 * The grow-cycle forms for Conform (`parseWithZod`), with the messages the server's request
 * schemas give (src/contract/api.ts), so a field says the same before and after a send (in
 * English; in the reader's language otherwise). Each message is written when a value is checked,
 * so it follows a change of language without new schemas. Conform turns an empty field into
 * undefined: "required" is the message for a missing value.
 */

const G = GROW_LIMITS;

type Label = "name" | "timeZone" | "freshKg" | "note" | "reason" | "days" | "dryKg";
const label = (l: Label) => i18n.t(`batches:form.labels.${l}`);
/** A limit as the message shows it: the person's digits, no grouping (the server writes "100000"). */
const limit = (n: number) => numberFormat({ useGrouping: false, maximumFractionDigits: 3 }).format(n);

const say = (key: "nameRequired" | "chooseRecipe" | "chooseMcu" | "startInvalid" | "zoneRequired" | "zoneInvalid" | "freshRequired" | "daysNotNumber" | "daysWhole" | "daysRequired") => () =>
  i18n.t(`batches:form.${key}`);
const tooLong = (l: Label, max: number) => () => i18n.t("batches:form.tooLong", { label: label(l), max: limit(max) });
const between = (l: Label, min: number, max: number) => () => i18n.t("batches:form.between", { label: label(l), min: limit(min), max: limit(max) });

const requiredText = (l: Label, message: () => string, max: number) => z.string({ error: message }).trim().min(1, { error: message }).max(max, { error: tooLong(l, max) });
const optionalText = (l: Label, max: number) => z.string().trim().max(max, { error: tooLong(l, max) }).optional();

/** A number typed in a field: `required` when empty, "must be a number" when not one, then its range. */
const numberField = (l: Label, required: () => string, min: number, max: number) =>
  z.preprocess(
    (v) => (v === "" || v === undefined ? undefined : Number(v)),
    z
      .number({ error: (issue) => (issue.input === undefined ? required() : i18n.t("batches:form.notNumber", { label: label(l) })) })
      .min(min, { error: between(l, min, max) })
      .max(max, { error: between(l, min, max) }),
  );

/** A checkbox group: none ticked is undefined, one a string, several an array. */
const idList = (message: () => string) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.coerce.number().int().positive()).min(1, { error: message }));

export const startBatchForm = z
  .object({
    name: requiredText("name", say("nameRequired"), LIMITS.name),
    recipe_id: z.coerce.number({ error: say("chooseRecipe") }).int().positive({ error: say("chooseRecipe") }),
    mcu_ids: idList(say("chooseMcu")),
    started_at: z.string({ error: say("startInvalid") }),
    time_zone: requiredText("timeZone", say("zoneRequired"), 64).refine(isTimeZone, { error: say("zoneInvalid") }),
  })
  // Read in the zone chosen beside it: the start is typed as the room's clock reads.
  .refine((v) => Number.isFinite(fromDateTimeLocal(v.started_at, v.time_zone)), {
    path: ["started_at"],
    error: say("startInvalid"),
    when: ({ value }) => typeof (value as { time_zone?: unknown }).time_zone === "string" && isTimeZone((value as { time_zone: string }).time_zone),
  });

/** The start form's fields, by the names of the body the server checks (its field errors' paths). */
export const START_FIELDS = ["name", "recipe_id", "mcu_ids", "started_at", "time_zone"] as const;
export type StartField = (typeof START_FIELDS)[number];

/**
 * The start form's field a refusal of the server is about: the field its answer names (the first
 * field error is the answer's own reason; "mcu_ids.0" is the MCUs' field), whatever language the
 * refusal is shown in. Null when it names none: the refusal is the whole form's.
 */
export function startFieldOfRefusal(err: unknown): StartField | null {
  if (!(err instanceof CoreError)) return null;
  const named = err.fieldErrors[0]?.path.split(".")[0];
  return START_FIELDS.find((f) => f === named) ?? null;
}

export const harvestForm = z.object({
  fresh_kg: numberField("freshKg", say("freshRequired"), 0.001, G.harvestKg),
  note: optionalText("note", G.note),
});

const dryWeightMessage = between("dryKg", 0.001, G.harvestKg);
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
      reason: optionalText("reason", G.reason),
      days: z.preprocess(
        (v) => (v === "" || v === undefined ? undefined : Number(v)),
        z
          .number({ error: say("daysNotNumber") })
          .min(1, { error: between("days", 1, G.extendDays) })
          .max(G.extendDays, { error: between("days", 1, G.extendDays) })
          .int({ error: say("daysWhole") })
          .optional(),
      ),
    })
    .refine((v) => !extend || v.days !== undefined, { path: ["days"], error: say("daysRequired") });
}
