import type { FastifyInstance, FastifyRequest } from "fastify";
import { can, cannotText, higherRole, ROLES, type Right, type Role } from "../../src/contract/team.ts";
import type { TargetRef } from "../db/team-repo.ts";
import { refusal } from "../errors.ts";

/**
 * Who may do what on a farm, checked before any handler of the signed-in scope runs. Every route
 * there declares its rule (`config.access`); a route without one fails the server's start, so a
 * new endpoint cannot be reached without a decision about it.
 */

/** The person's own records (their account, notifications, preferences) and loads that answer only what they may see. */
export interface OwnRule {
  own: true;
}

/** A right on what the request names (its farm, MCU, batch …): a member's role there must have it. */
export interface RightRule {
  right: Right | ((req: FastifyRequest) => Right);
  /** What the request acts on; null when the request does not say (a bad body: the handler answers 400). */
  target(req: FastifyRequest): TargetRef | null;
}

export type AccessRule = OwnRule | RightRule;

/** The account a request acts in, and with which role: its own account as Owner, or a farm of another as a member. */
export interface Acting {
  /** The account whose data the request reads and writes (every repository is keyed by it). */
  tenant: number;
  role: Role;
  /** The farms of another account the request touches (empty in one's own account, or for the account as a whole). */
  farmIds: number[];
}

declare module "fastify" {
  interface FastifyContextConfig {
    access?: AccessRule;
  }
  interface FastifyRequest {
    /** The account and role this request acts with, set before its handler (the signed-in scope only). */
    acting: Acting;
  }
}

export const OWN: { config: { access: OwnRule } } = { config: { access: { own: true } } };

/** A route's options for a right on a target. */
export const needs = (right: RightRule["right"], target: RightRule["target"]): { config: { access: RightRule } } => ({ config: { access: { right, target } } });

const ownAccount = (person: number): Acting => ({ tenant: person, role: "owner", farmIds: [] });

/**
 * The account and role a person acts with on a target. In their own account, or where they are no
 * member (or the target does not exist), they act in their own account: the handler's lookups,
 * keyed by it, then find nothing and answer 404 as for anyone's missing record. A member acts in
 * the target's account with their weakest role among the farms it touches (the highest, for
 * something of the account as a whole), which must have the right.
 */
export async function actingOn(app: FastifyInstance, person: number, ref: TargetRef | null, right: Right): Promise<Acting> {
  if (ref === null) return ownAccount(person);
  const target = await app.repos.team.target(ref);
  if (!target || target.tenant === person) return ownAccount(person);
  const roles = await app.repos.team.rolesIn(person, target.tenant);
  if (roles.size === 0) return ownAccount(person);
  let role: Role;
  if (target.farmIds.length === 0) {
    role = [...roles.values()].reduce(higherRole);
  } else {
    const held = target.farmIds.map((f) => roles.get(f));
    if (held.every((r) => r === undefined)) return ownAccount(person);
    if (held.some((r) => r === undefined)) throw refusal("FORBIDDEN", "not_a_member", "This touches a farm you are not a member of");
    role = (held as Role[]).reduce((a, b) => (ROLES.indexOf(a) >= ROLES.indexOf(b) ? a : b));
  }
  if (!can(role, right)) throw refusal("FORBIDDEN", "role_cannot", cannotText(role, right), { role, right });
  return { tenant: target.tenant, role, farmIds: target.farmIds };
}

/**
 * A second thing a request names (the farm an MCU moves to, the MCU a controller moves to): the
 * person needs the same right there. One of another account is not checked here: the handler's
 * lookups, keyed by the request's account, do not find it (404).
 */
export async function requireAlso(app: FastifyInstance, req: FastifyRequest, ref: TargetRef, right: Right): Promise<void> {
  await actingOn(app, req.signedIn.clientId, ref, right);
}

/** An id a request's body names, when it is one (a bad one is the handler's 400). */
export const bodyId = (req: FastifyRequest, field: string): number | null => {
  const v = (req.body as Record<string, unknown> | null | undefined)?.[field];
  return typeof v === "number" && Number.isInteger(v) && v > 0 && v <= 2_147_483_647 ? v : null;
};

/** Installs the rule check on a scope: call before its routes are registered. */
export function installFarmAccess(scope: FastifyInstance): void {
  scope.decorateRequest("acting", null as unknown as Acting);
  scope.addHook("onRoute", (route) => {
    if (!route.config?.access) throw new Error(`${String(route.method)} ${route.url} is in the signed-in scope without an access rule (OWN or needs(right, target))`);
  });
  scope.addHook("preHandler", async (req) => {
    const rule = req.routeOptions.config.access!;
    const person = req.signedIn.clientId;
    if ("own" in rule) {
      req.acting = ownAccount(person);
      return;
    }
    const right = typeof rule.right === "function" ? rule.right(req) : rule.right;
    req.acting = await actingOn(scope, person, rule.target(req), right);
  });
}
