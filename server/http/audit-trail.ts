import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from "fastify";
import type { AuditKind } from "../../src/contract/team.ts";
import type { AuditKey } from "../db/audit-repo.ts";

/**
 * The audit trail of the signed-in scope: a route that changes something declares what
 * (`config.audit`), and every successful call of it is recorded with who, when, from which
 * address, and the record before and after, read from the database around the handler (so a
 * handler cannot forget it, and the trail shows what was stored, not what was asked).
 */
export interface AuditRule {
  kind: Exclude<AuditKind, "command">;
  /** What was done ("created", "changed", "deleted", a batch's action …). */
  action: string | ((req: FastifyRequest) => string);
  /** The existing record the request changes (its state before); null when it makes a new one. */
  key?: (req: FastifyRequest) => AuditKey | null;
  /** The record a create made, from its answer. */
  created?: (answer: unknown, req: FastifyRequest) => AuditKey | null;
}

declare module "fastify" {
  interface FastifyContextConfig {
    audit?: AuditRule;
  }
  interface FastifyRequest {
    /** The audited record as it was before the handler ran (undefined: not read). */
    auditBefore: Record<string, unknown> | null | undefined;
  }
}

/** Route options with an audit rule added to their config. */
export const audited = <O extends { config: object }>(options: O, audit: AuditRule): O & RouteShorthandOptions => ({ ...options, config: { ...options.config, audit } });

const farmOf = (record: Record<string, unknown> | null | undefined): number | null => (typeof record?.farm_id === "number" ? record.farm_id : null);

/** Installs the trail on a scope, after its access check (the rule's `key` may rely on the request's access). */
export function installAuditTrail(scope: FastifyInstance): void {
  scope.decorateRequest("auditBefore", undefined);
  scope.addHook("preHandler", async (req) => {
    const rule = req.routeOptions.config.audit;
    if (!rule?.key) return;
    const key = rule.key(req);
    req.auditBefore = key === null ? null : await scope.repos.audit.snapshot(rule.kind, key);
  });
  scope.addHook("preSerialization", async (req, reply, payload) => {
    const rule = req.routeOptions.config.audit;
    if (!rule || reply.statusCode >= 400) return payload;
    const key = rule.created ? rule.created(payload, req) : (rule.key?.(req) ?? null);
    const after = key === null ? null : await scope.repos.audit.snapshot(rule.kind, key);
    const before = req.auditBefore ?? null;
    let farmId = farmOf(after) ?? farmOf(before) ?? req.acting.farmIds[0] ?? null;
    // A device, a link or a batch is on its MCU's farm (a batch: its first MCU's, in the trail).
    const mcu = (after ?? before)?.mcu_id;
    if (farmId === null && typeof mcu === "number") farmId = (await scope.repos.team.target({ mcu }))?.farmIds[0] ?? null;
    if (farmId === null && rule.kind === "batch" && key !== null) farmId = (await scope.repos.team.target({ batch: key as number }))?.farmIds[0] ?? null;
    await scope.repos.audit.record({
      tenant: req.acting.tenant,
      farmId,
      actorId: req.signedIn.clientId,
      address: req.ip,
      at: scope.now(),
      kind: rule.kind,
      entityId: key === null ? "" : String(key),
      action: typeof rule.action === "function" ? rule.action(req) : rule.action,
      before,
      after,
    });
    return payload;
  });
}
