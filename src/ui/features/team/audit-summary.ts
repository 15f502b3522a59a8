/** One field of an audited record that a change altered. */
export interface FieldChange {
  field: string;
  /** The value before, and after, as short text; null where the record did not exist or had no such field. */
  from: string | null;
  to: string | null;
}

const MAX_VALUE = 40;

/** A value as a short text: strings bare, everything else as JSON, cut at MAX_VALUE characters. */
export function shortValue(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/**
 * The top-level fields whose value differs between the record before and after a change, in the
 * record's own order. A record created or deleted lists all its fields, one side empty.
 */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null): FieldChange[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const changes: FieldChange[] = [];
  for (const field of fields) {
    const had = before !== null && Object.hasOwn(before, field);
    const has = after !== null && Object.hasOwn(after, field);
    const a = had ? JSON.stringify(before[field]) : undefined;
    const b = has ? JSON.stringify(after[field]) : undefined;
    if (a === b) continue;
    changes.push({ field, from: had ? shortValue(before[field]) : null, to: has ? shortValue(after[field]) : null });
  }
  return changes;
}

/** How many changed fields a line shows before "and N more". */
export const SHOWN_CHANGES = 4;

/** The changes as one short line: "role: grower → viewer; note: — → Night shift", at most SHOWN_CHANGES of them. */
export function changeSummary(changes: readonly FieldChange[]): string {
  if (changes.length === 0) return "No field changed";
  const shown = changes.slice(0, SHOWN_CHANGES).map((c) => `${c.field}: ${c.from ?? "—"} → ${c.to ?? "—"}`);
  const more = changes.length - shown.length;
  return more > 0 ? `${shown.join("; ")}; and ${more} more` : shown.join("; ");
}
