import type { TFunction } from "i18next";
import { API_PATHS } from "../../../contract/api-paths.ts";
import type { AuditKind } from "../../../contract/team.ts";

/** The audit trail's filters as the form holds them: days as the date inputs give them ("2026-03-10"), "" when unset. */
export interface AuditFilters {
  kind: AuditKind | "";
  actor: string;
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilters = { kind: "", actor: "", from: "", to: "" };

/** The query of the filters: the days are this browser's, from the first one's start to the last one's end. */
export interface AuditFilterQuery {
  kind?: AuditKind;
  actor?: string;
  from?: string;
  to?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Local midnight of a day given as YYYY-MM-DD, `plusDays` later, as an instant the server reads (ISO with Z). */
function localMidnight(day: string, plusDays = 0): string | undefined {
  if (!DAY.test(day)) return undefined;
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const at = new Date(y, m - 1, d + plusDays);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

export function auditQueryOf(f: AuditFilters): AuditFilterQuery {
  const q: AuditFilterQuery = {};
  if (f.kind) q.kind = f.kind;
  if (f.actor.trim()) q.actor = f.actor.trim();
  const from = localMidnight(f.from);
  // "To" is a whole day: up to the next day's start.
  const to = localMidnight(f.to, 1);
  if (from) q.from = from;
  if (to) q.to = to;
  return q;
}

/** Why the filters cannot be asked for, or null. */
export const filtersProblem = (t: TFunction<"team">, f: AuditFilters): string | null => (f.from && f.to && f.from > f.to ? t("audit.datesProblem") : null);

/** The API base the app was built with ("" is the page's own origin), as the CSV links of the history screens use it. */
const API_BASE = (import.meta.env.VITE_API_BASE ?? "").replace(/\/$/, "");

/**
 * The CSV of the trail with the same filters: a plain link, so the browser sends the session cookie
 * and saves the streamed file itself, however long the trail is.
 */
export function auditCsvUrl(farmId: number, f: AuditFilters): string {
  const q = new URLSearchParams(Object.entries(auditQueryOf(f)) as [string, string][]).toString();
  return `${API_BASE}${API_PATHS.farmAuditCsv(farmId)}${q ? `?${q}` : ""}`;
}
