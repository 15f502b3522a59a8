import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { API_PATHS } from "../../../src/contract/api-paths.ts";
import { AUDIT_KINDS, type AuditEntry, type AuditKind, type AuditPage } from "../../../src/contract/team.ts";
import type { AuditCursor, AuditFilters } from "../../db/audit-repo.ts";
import { notFound, refusal } from "../../errors.ts";
import { attachment, CSV_CONTENT_TYPE, csvStream, line, text } from "../../history/csv.ts";
import { createExportGate, DEFAULT_EXPORT_LIMITS } from "../../history/export-gate.ts";
import { badCursor, encodeCursor, notOneOf, parseCursor, parseOptionalRange, queryOf } from "../../history/history-params.ts";
import { needs } from "../farm-access.ts";
import { idParam } from "../validate.ts";

const PAGE = { default: 50, max: 200 };
/** Entries read per query while a CSV streams. */
const CSV_CHUNK = 1000;
const FILTERS = ["kind", "actor", "from", "to"] as const;

const farmOf = (req: FastifyRequest) => ({ farm: idParam((req.params as { farm_id: string }).farm_id, "Farm") });

function filtersOf(q: Record<string, string>): AuditFilters {
  if (q.kind !== undefined && !(AUDIT_KINDS as readonly string[]).includes(q.kind)) throw notOneOf("kind", AUDIT_KINDS);
  if (q.actor !== undefined && q.actor.length > 100) throw refusal("VALIDATION", "too_long", "actor must be at most 100 characters", { max: 100 });
  return { ...parseOptionalRange(q), kind: q.kind as AuditKind | undefined, actor: q.actor || undefined };
}

/** The trail's own cursor, opaque to the app (the command log's encoding: a time in µs and an id). */
const encodeAuditCursor = (c: AuditCursor) => encodeCursor({ atMicros: c.atMicros, commandId: c.auditId });
function decodeAuditCursor(value: string | undefined): AuditCursor | undefined {
  const c = parseCursor(value, "cursor", "next");
  if (!c) return undefined;
  if (!/^\d{1,18}$/.test(c.commandId)) throw badCursor("cursor", "next");
  return { atMicros: c.atMicros, auditId: c.commandId };
}

const json = (v: unknown) => (v === null ? "" : JSON.stringify(v));
const auditLine = (e: AuditEntry) => line([e.at, text(e.actor), text(e.address), e.kind, text(e.entity_id), text(e.action), text(json(e.before)), text(json(e.after))]);

/** A farm's audit trail (its changes and its account's of no farm), for the roles that may read it. */
export const auditRoutes: FastifyPluginAsync = async (app) => {
  const exportGate = createExportGate(DEFAULT_EXPORT_LIMITS);

  async function farmName(req: FastifyRequest, farmId: number): Promise<string> {
    const farm = await app.repos.farms.get(req.acting.tenant, farmId);
    if (!farm) throw notFound("Farm");
    return farm.name;
  }

  app.get<{ Params: { farm_id: string } }>(API_PATHS.farmAudit.pattern, needs("readAudit", farmOf), async (req): Promise<AuditPage> => {
    const farmId = farmOf(req).farm;
    const q = queryOf(req.query, [...FILTERS, "limit", "cursor"]);
    const limit = q.limit === undefined ? PAGE.default : /^\d{1,3}$/.test(q.limit) ? Number(q.limit) : NaN;
    if (!(limit >= 1 && limit <= PAGE.max)) throw refusal("VALIDATION", "out_of_range", `limit must be a whole number from 1 to ${PAGE.max}`, { min: 1, max: PAGE.max });
    const filters = filtersOf(q);
    const after = decodeAuditCursor(q.cursor);
    await farmName(req, farmId);
    const rows = await app.repos.audit.list(req.acting.tenant, farmId, filters, limit + 1, after);
    const page = rows.slice(0, limit);
    return { entries: page.map((r) => r.entry), next: rows.length > limit ? encodeAuditCursor(page[page.length - 1]!.cursor) : null };
  });

  /** Every matching entry, newest first; read behind every other query of this node. */
  app.get<{ Params: { farm_id: string } }>(API_PATHS.farmAuditCsv.pattern, needs("readAudit", farmOf), async (req, reply) => {
    const farmId = farmOf(req).farm;
    const filters = filtersOf(queryOf(req.query, FILTERS));
    const name = await farmName(req, farmId);
    const tenant = req.acting.tenant;
    async function* body(): AsyncGenerator<string> {
      let after: AuditCursor | undefined;
      for (;;) {
        const rows = await app.repos.bulkAudit.list(tenant, farmId, filters, CSV_CHUNK, after);
        if (rows.length === 0) return;
        yield rows.map((r) => auditLine(r.entry)).join("");
        if (rows.length < CSV_CHUNK) return;
        after = rows[rows.length - 1]!.cursor;
      }
    }
    exportGate.enter(tenant, reply);
    reply.header("content-type", CSV_CONTENT_TYPE);
    reply.header("content-disposition", attachment(name, "audit", filters.fromMs, filters.toMs));
    reply.header("cache-control", "no-store");
    return reply.send(csvStream(["at", "actor", "address", "kind", "id", "action", "before", "after"], body()));
  });
};
