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
 * A value before and after, each as a short text that shows how they differ: two long values alike
 * in their first characters (a rota's shifts with the last one taken off) would read the same cut
 * at the start, so both are cut around where they first differ.
 */
function shortPair(before: unknown, after: unknown): [string, string] {
  const [from, to] = [shortValue(before), shortValue(after)];
  if (from !== to) return [from, to];
  const [a, b] = [before, after].map((v) => (typeof v === "string" ? v : (JSON.stringify(v) ?? String(v)))) as [string, string];
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  // A few characters of what they share lead in, so the difference reads in its place ("client_id":2).
  const start = Math.max(0, at - 12);
  const window = (text: string) => {
    const part = text.slice(start);
    return `…${part.length > MAX_VALUE - 1 ? `${part.slice(0, MAX_VALUE - 2)}…` : part}`;
  };
  return [window(a), window(b)];
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
    if (had && has) {
      const [from, to] = shortPair(before[field], after[field]);
      changes.push({ field, from, to });
    } else changes.push({ field, from: had ? shortValue(before[field]) : null, to: has ? shortValue(after[field]) : null });
  }
  return changes;
}

/** How many changed fields a line shows before "and N more". */
export const SHOWN_CHANGES = 4;

/** Fields every change touches: the entry's own time says when. */
const BOOKKEEPING = /^(created_at|updated_at)$/;
/**
 * What a record created or deleted says of itself besides its content: its ids, who and when. Its
 * content (a role, a note, a name) is what the line is for.
 */
const IDENTITY = /(^id|_id|_by|_at)$/;

/** What a change altered, for one short line: its fields' changes, and how many more it has than those. */
export interface ChangeSummary {
  /** "role: grower → viewer" for a change, "role: grower" for a record created or deleted. */
  lines: string[];
  /** How many more fields changed than the lines show. */
  more: number;
  /** A change that altered no field but those every change touches (the line says so). */
  unchanged: boolean;
}

/**
 * What a change altered: "role: grower → viewer" for a change, "role: grower", "note: Night shift"
 * for a record created or deleted (its content only, without ids, times and empty fields), at most
 * SHOWN_CHANGES fields and how many more. The fields and values are the records' own (the
 * database's names, as the CSV writes them), not words of the reader's language.
 */
export function changeSummary(before: Record<string, unknown> | null, after: Record<string, unknown> | null): ChangeSummary {
  const oneSided = before === null || after === null;
  const changes = changedFields(before, after).filter((c) => !BOOKKEEPING.test(c.field) && !(oneSided && (IDENTITY.test(c.field) || [null, "", "null"].includes(c.to ?? c.from))));
  const lines = changes.slice(0, SHOWN_CHANGES).map((c) => (oneSided ? `${c.field}: ${c.to ?? c.from}` : `${c.field}: ${c.from ?? "—"} → ${c.to ?? "—"}`));
  return { lines, more: changes.length - lines.length, unchanged: changes.length === 0 && !oneSided };
}
