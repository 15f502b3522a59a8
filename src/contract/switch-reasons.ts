import { type } from "arktype";
import type { SwitchReason, SwitchWhy } from "./switch-reasons-values.ts";

/**
 * Why a controller switched: the rules and their words (switch-reasons-values.ts, which the app's
 * page imports without the schema library), and the schemas of a reason as a device reports it and
 * as the command log keeps it, for the worker and the server.
 */
export * from "./switch-reasons-values.ts";

/**
 * The rule that fired, as a device reports it with the state change (`"why"` of a controller in
 * a reading). The rule id is any short text, not one of today's: a device that knows a newer rule
 * must not have its whole reading refused for it.
 */
export const switchWhy = type({ rule: "0 < string <= 64", value: "-1000000 <= number <= 1000000", limit: "-1000000 <= number <= 1000000" });

/** A reason as the command log keeps it: the device's (or the server's inference), and the batch's place then. */
export const switchReason = type({
  rule: "string",
  value: "number",
  limit: "number",
  /** The server worked it out from the config and the reading; the device did not say. */
  "inferred?": "boolean",
  /** "Fruiting, day 3" when the MCU was in a running batch. */
  "phase?": "string | null",
});

// The schemas check exactly the values' types: a field added to one and not the other fails to compile here.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Holds<T extends true> = T;
export type SchemasMatchTheirTypes = [Holds<Same<typeof switchWhy.infer, SwitchWhy>>, Holds<Same<typeof switchReason.infer, SwitchReason>>];
