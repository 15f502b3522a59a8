import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { API_PATHS } from "../../../src/contract/api-paths.ts";
import type { MessageResponse } from "../../../src/contract/api.ts";
import { acceptInvitationRequest, changeRoleRequest, createInvitationRequest } from "../../../src/contract/api.ts";
import {
  INVITATION_DAYS,
  type CreatedInvitation,
  type FarmRole,
  type Invitation,
  type InvitationPreview,
  type Member,
  type Right,
} from "../../../src/contract/team.ts";
import { emptyRota, rotaRequest, type AlarmNotice, type Rota } from "../../../src/contract/rota.ts";
import { hashInvitationCode, newInvitationCode, type InvitationRefusal } from "../../db/team-repo.ts";
import { AppError, notFound, refusal } from "../../errors.ts";
import { needs, OWN } from "../farm-access.ts";
import { audited } from "../audit-trail.ts";
import { idParam, parse } from "../validate.ts";

const DAY_MS = 86_400_000;

const farmOf = (req: FastifyRequest) => ({ farm: idParam((req.params as { farm_id: string }).farm_id, "Farm") });

const memberKey = (req: FastifyRequest): [number, number] => {
  const p = req.params as { farm_id: string; client_id: string };
  return [idParam(p.farm_id, "Farm"), idParam(p.client_id, "Member")];
};

const REFUSED: Record<InvitationRefusal, AppError> = {
  unknown: refusal("NOT_FOUND", "invitation_unknown", "This invitation code is not valid: check it, or ask for a new invitation"),
  expired: refusal("GONE", "invitation_expired", "This invitation has expired: ask for a new one"),
  revoked: refusal("GONE", "invitation_revoked", "This invitation was withdrawn: ask for a new one"),
};

/**
 * Farm teams: a person's role on each farm they see, a farm's members and its one-time
 * invitations. Only an Owner manages members; any member may leave.
 */
export const teamRoutes: FastifyPluginAsync = async (app) => {
  const { team } = app.repos;
  // Codes are long enough not to be guessed; the limit keeps anyone from trying at scale.
  const { perAddress } = app.access;

  /**
   * The farm a path names, in the account the request acts in. A member's farm was found by the
   * access check (the request acts in the farm's account, with the member's role there): it is
   * not looked up again. In the person's own account the path may name a missing farm or another
   * account's, answered alike (404: someone else's farm is not confirmed).
   */
  async function farmIn(req: FastifyRequest): Promise<number> {
    const farmId = farmOf(req).farm;
    if (req.acting.farmIds.includes(farmId)) return farmId;
    if (!(await app.repos.farms.exists(req.acting.tenant, farmId))) throw notFound("Farm");
    return farmId;
  }

  app.get(API_PATHS.farmRoles, OWN, async (req): Promise<FarmRole[]> => team.farmRoles(req.signedIn.clientId));

  app.get<{ Params: { farm_id: string } }>(API_PATHS.farmMembers.pattern, needs("see", farmOf), async (req): Promise<Member[]> => {
    return team.members(await farmIn(req));
  });

  /** The member a path names, who is not the farm's account (its Owner by creation stays so). */
  async function memberOf(req: FastifyRequest<{ Params: { farm_id: string; client_id: string } }>): Promise<{ farmId: number; person: number }> {
    const person = idParam(req.params.client_id, "Member");
    const farmId = await farmIn(req);
    if (person === req.acting.tenant) throw refusal("FORBIDDEN", "account_is_owner", "The farm's account is always its Owner");
    return { farmId, person };
  }

  /**
   * Takes a person who can no longer acknowledge the farm's alarms (removed, gone, made a Viewer)
   * off its on-call rota: a shift of theirs would have the farm's alarms called to someone who
   * may not act on them, or no longer sees the farm at all. The rota's change is in the trail as
   * its own, by whoever made the change that caused it.
   */
  async function offTheRota(req: FastifyRequest, farmId: number, person: number): Promise<void> {
    const { rota, audit } = app.repos;
    const current = await rota.get(farmId);
    if (!current?.shifts.some((s) => s.client_id === person)) return;
    const before = await audit.snapshot("rota", farmId);
    const { farm_id: _farm, ...kept } = current;
    await rota.put(farmId, { ...kept, shifts: kept.shifts.filter((s) => s.client_id !== person) }, app.now());
    const after = await audit.snapshot("rota", farmId);
    await audit.record({ tenant: req.acting.tenant, farmId, actorId: req.signedIn.clientId, address: req.ip, at: app.now(), kind: "rota", entityId: String(farmId), action: "changed", before, after });
  }

  app.put<{ Params: { farm_id: string; client_id: string } }>(API_PATHS.farmMember.pattern, audited(needs("manageMembers", farmOf), { kind: "member", action: "role changed", key: memberKey }), async (req): Promise<Member> => {
    const { farmId, person } = await memberOf(req);
    const { role } = parse(changeRoleRequest, req.body);
    if (!(await team.setRole(farmId, person, role))) throw notFound("Member");
    if (role === "viewer") await offTheRota(req, farmId, person);
    app.events.emit("membershipChanged", farmId, person, role);
    return (await team.members(farmId)).find((m) => m.client_id === person)!;
  });

  // Leaving a farm is every member's own choice; removing someone else is an Owner's.
  const removeRight = (req: FastifyRequest): Right => (Number((req.params as { client_id: string }).client_id) === req.signedIn.clientId ? "see" : "manageMembers");
  app.delete<{ Params: { farm_id: string; client_id: string } }>(API_PATHS.farmMember.pattern, audited(needs(removeRight, farmOf), { kind: "member", action: (req) => (removeRight(req) === "see" ? "left" : "removed"), key: memberKey }), async (req): Promise<MessageResponse> => {
    const { farmId, person } = await memberOf(req);
    if (!(await team.removeMember(farmId, person))) throw notFound("Member");
    await offTheRota(req, farmId, person);
    app.events.emit("membershipChanged", farmId, person, null);
    return { message: person === req.signedIn.clientId ? "You left the farm" : "Member removed" };
  });

  app.get<{ Params: { farm_id: string } }>(API_PATHS.farmInvitations.pattern, needs("manageMembers", farmOf), async (req): Promise<Invitation[]> => {
    return team.invitations(await farmIn(req), app.now());
  });

  app.post<{ Params: { farm_id: string } }>(API_PATHS.farmInvitations.pattern, audited(needs("manageMembers", farmOf), { kind: "invitation", action: "created", created: (a) => (a as CreatedInvitation).invitation.invitation_id }), async (req, reply): Promise<CreatedInvitation> => {
    const body = parse(createInvitationRequest, req.body);
    const farmId = await farmIn(req);
    const now = app.now();
    const code = newInvitationCode();
    const expiresAt = new Date(now.getTime() + (body.days ?? INVITATION_DAYS.default) * DAY_MS);
    const invitation = await team.createInvitation(farmId, body.role, body.note ?? "", hashInvitationCode(code), req.signedIn.clientId, now, expiresAt);
    reply.status(201);
    return { invitation, code };
  });

  app.delete<{ Params: { farm_id: string; invitation_id: string } }>(API_PATHS.farmInvitation.pattern, audited(needs("manageMembers", farmOf), { kind: "invitation", action: "revoked", key: (req) => idParam((req.params as { invitation_id: string }).invitation_id, "Invitation") }), async (req): Promise<Invitation> => {
    const invitationId = idParam(req.params.invitation_id, "Invitation");
    const farmId = await farmIn(req);
    const invitation = await team.revokeInvitation(farmId, invitationId, app.now());
    if (!invitation) throw notFound("Invitation");
    return invitation;
  });

  // ---- the on-call rota ----

  app.get<{ Params: { farm_id: string } }>(API_PATHS.farmRota.pattern, needs("see", farmOf), async (req): Promise<Rota> => {
    const farmId = await farmIn(req);
    return (await app.repos.rota.get(farmId)) ?? emptyRota(farmId);
  });

  app.put<{ Params: { farm_id: string } }>(API_PATHS.farmRota.pattern, audited(needs("editRota", farmOf), { kind: "rota", action: "changed", key: (req) => farmOf(req).farm }), async (req): Promise<Rota> => {
    const body = parse({ schema: rotaRequest, missing: {} }, req.body);
    const farmId = await farmIn(req);
    // Only people who can act on an alarm are on call: the farm's account and its members but Viewers.
    const callable = await app.repos.rota.callable(farmId);
    const outsider = body.shifts.findIndex((s) => !callable.has(s.client_id));
    if (outsider >= 0) throw refusal("VALIDATION", "rota_not_callable", "Only the farm's members who can acknowledge alarms can be on call", undefined, [
      { path: `shifts.${outsider}.client_id`, message: "Choose a member of this farm who is not a Viewer", reason: "rota_not_callable" },
    ]);
    return app.repos.rota.put(farmId, body, app.now());
  });

  app.get<{ Params: { alarm_id: string } }>(
    API_PATHS.alarmNotices.pattern,
    needs("see", (req) => ({ alarm: idParam((req.params as { alarm_id: string }).alarm_id, "Alarm") })),
    async (req): Promise<AlarmNotice[]> => {
      const alarmId = idParam(req.params.alarm_id, "Alarm");
      // Someone else's alarm: the request acts in the person's own account, where it is not.
      if ((await app.repos.team.target({ alarm: alarmId }))?.tenant !== req.acting.tenant) throw notFound("Alarm");
      return app.repos.rota.notices(alarmId);
    },
  );

  app.get<{ Params: { code: string } }>(API_PATHS.invitationPreview.pattern, { config: { ...OWN.config, ...perAddress } }, async (req): Promise<InvitationPreview> => {
    const found = await team.preview(hashInvitationCode(req.params.code.slice(0, 64)), app.now());
    if (typeof found === "string") throw REFUSED[found];
    return { farm_name: found.farm_name, role: found.role, invited_by: found.invited_by, expires_at: found.expires_at };
  });

  app.post(API_PATHS.acceptInvitation, audited({ config: { ...OWN.config, ...perAddress } }, { kind: "member", action: "joined", created: (a, req) => [(a as FarmRole).farm_id, req.signedIn.clientId] }), async (req): Promise<FarmRole> => {
    const { code } = parse(acceptInvitationRequest, req.body);
    const person = req.signedIn.clientId;
    const now = app.now();
    const joined = await app.repos.transaction(async (tx) => {
      const found = await tx.team.preview(hashInvitationCode(code), now);
      if (typeof found === "string") throw REFUSED[found];
      const accepted = await tx.team.accept(found.invitation_id, person, now);
      // Used or withdrawn between the look and the take.
      if (!accepted) throw REFUSED.unknown;
      return accepted;
    });
    const owner = (await team.farmRoles(person)).find((r) => r.farm_id === joined.farm_id)!;
    app.events.emit("membershipChanged", joined.farm_id, person, joined.role);
    return owner;
  });
};
