import { createHash, randomBytes } from "node:crypto";
import { INVITATION_CODE_LENGTH, normalizeInvitationCode, type FarmRole, type Invitation, type InvitationPreview, type Member, type Role } from "../../src/contract/team.ts";
import type { Sql } from "./database.ts";
import { iso } from "./rows.ts";

/**
 * What a farm-scoped request acts on, as the access check needs it: the account whose data it is
 * (the tenant every other repository is keyed by) and the farms it touches. No farm: something of
 * the account as a whole (a profile linked to nothing, a recipe).
 */
export interface AccessTarget {
  tenant: number;
  farmIds: number[];
}

/** What a request may name to say what it acts on (each resolved to its account and farms). */
export type TargetRef =
  | { farm: number }
  | { mcu: number }
  | { mcus: readonly number[] }
  | { unit: number }
  | { sensor: number }
  | { batch: number }
  | { alarm: number }
  | { profile: number }
  | { link: number }
  | { recipe: number }
  | { tenant: number };

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** A fresh invitation code: 120 random bits in base32 (no 0/1/8/9: not mistaken for letters when typed). */
export function newInvitationCode(): string {
  const bytes = randomBytes(INVITATION_CODE_LENGTH);
  let code = "";
  for (let i = 0; i < INVITATION_CODE_LENGTH; i++) code += BASE32[bytes[i]! & 31];
  return code;
}

export const hashInvitationCode = (code: string): string => createHash("sha256").update(normalizeInvitationCode(code)).digest("hex");

interface InvitationRow {
  invitation_id: number;
  farm_id: number;
  role: Role;
  note: string;
  created_by: string | null;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  accepted_by: string | null;
  accepted_at: Date | null;
}

const INVITATION_SELECT = `
  select i.invitation_id, i.farm_id, i.role, i.note, c.username as created_by, i.created_at, i.expires_at, i.revoked_at,
    a.username as accepted_by, i.accepted_at
  from farm_invitations i left join clients c on c.client_id = i.created_by left join clients a on a.client_id = i.accepted_by`;

function toInvitation(row: InvitationRow, now: Date): Invitation {
  const state = row.accepted_at ? "accepted" : row.revoked_at ? "revoked" : row.expires_at <= now ? "expired" : "open";
  return {
    invitation_id: row.invitation_id,
    farm_id: row.farm_id,
    role: row.role,
    note: row.note,
    created_by: row.created_by,
    created_at: iso(row.created_at),
    expires_at: iso(row.expires_at),
    state,
    accepted_by: row.accepted_by,
  };
}

/** Why an invitation code cannot be used (one answer for a wrong code and a used one: a code is not confirmed to a guesser). */
export type InvitationRefusal = "unknown" | "expired" | "revoked";

/** Farm teams: memberships, invitations and the access a person has to a farm or an account. */
export function teamRepo(sql: Sql) {
  /** The account and farms of what a request names; undefined when it does not exist. */
  async function target(ref: TargetRef): Promise<AccessTarget | undefined> {
    const one = async (text: string, id: number | readonly number[]) => {
      const rows = await sql.query<{ tenant: number; farm_id: number | null }>(text, [id]);
      if (rows.length === 0) return undefined;
      return { tenant: rows[0]!.tenant, farmIds: [...new Set(rows.flatMap((r) => (r.farm_id === null ? [] : [r.farm_id])))] };
    };
    if ("farm" in ref) return one("select client_id as tenant, farm_id from farms where farm_id = $1", ref.farm);
    if ("mcu" in ref) return one("select client_id as tenant, farm_id from mcus where mcu_id = $1", ref.mcu);
    if ("mcus" in ref) {
      const found = await sql.query<{ tenant: number; farm_id: number }>("select client_id as tenant, farm_id from mcus where mcu_id = any($1::int[])", [ref.mcus]);
      const tenants = new Set(found.map((r) => r.tenant));
      // MCUs of two accounts, or some missing: not one target (the route answers as for a missing MCU).
      if (found.length !== new Set(ref.mcus).size || tenants.size !== 1) return undefined;
      return { tenant: found[0]!.tenant, farmIds: [...new Set(found.map((r) => r.farm_id))] };
    }
    if ("unit" in ref) return one("select c.client_id as tenant, m.farm_id from controllers c left join mcus m on m.mcu_id = c.mcu_id where c.unit_id = $1", ref.unit);
    if ("sensor" in ref) return one("select s.client_id as tenant, m.farm_id from sensors s left join mcus m on m.mcu_id = s.mcu_id where s.sensor_id = $1", ref.sensor);
    if ("batch" in ref)
      return one("select b.client_id as tenant, m.farm_id from batches b left join batch_mcus bm on bm.batch_id = b.batch_id left join mcus m on m.mcu_id = bm.mcu_id where b.batch_id = $1", ref.batch);
    if ("alarm" in ref) return one("select a.client_id as tenant, m.farm_id from alerts a join mcus m on m.mcu_id = a.mcu_id where a.alert_id = $1", ref.alarm);
    // A profile acts on the farms of the MCUs it is linked to.
    if ("profile" in ref)
      return one("select p.client_id as tenant, m.farm_id from setting_profiles p left join profile_links l on l.profile_id = p.profile_id left join mcus m on m.mcu_id = l.mcu_id where p.profile_id = $1", ref.profile);
    if ("link" in ref) return one("select l.client_id as tenant, m.farm_id from profile_links l join mcus m on m.mcu_id = l.mcu_id where l.id = $1", ref.link);
    if ("recipe" in ref) return one("select client_id as tenant, null::int as farm_id from recipes where recipe_id = $1", ref.recipe);
    return one("select client_id as tenant, null::int as farm_id from clients where client_id = $1", ref.tenant);
  }

  return {
    target,

    /** The person's roles on the farms of one account they are a member of (not the account's own). */
    async rolesIn(person: number, tenant: number): Promise<Map<number, Role>> {
      const rows = await sql.query<{ farm_id: number; role: Role }>(
        "select fm.farm_id, fm.role from farm_members fm join farms f on f.farm_id = fm.farm_id where fm.client_id = $1 and f.client_id = $2",
        [person, tenant],
      );
      return new Map(rows.map((r) => [r.farm_id, r.role]));
    },

    /** The farms of an account that have members (their sockets get those farms' live data). */
    async farmsWithMembers(tenant: number): Promise<number[]> {
      const rows = await sql.query<{ farm_id: number }>("select distinct fm.farm_id from farm_members fm join farms f on f.farm_id = fm.farm_id where f.client_id = $1", [tenant]);
      return rows.map((r) => r.farm_id);
    },

    /** Whether the person is a member of any farm of another account (else they see only their own, as before teams). */
    async isMemberAnywhere(person: number): Promise<boolean> {
      const rows = await sql.query("select 1 from farm_members where client_id = $1 limit 1", [person]);
      return rows.length > 0;
    },

    /** Every farm the person may see, with their role: their own account's, then those they are a member of. */
    async farmRoles(person: number): Promise<FarmRole[]> {
      return sql.query<FarmRole>(
        `select farm_id, client_id as owner_id, 'owner' as role from farms where client_id = $1
         union all
         select fm.farm_id, f.client_id as owner_id, fm.role from farm_members fm join farms f on f.farm_id = fm.farm_id where fm.client_id = $1 and f.client_id <> $1
         order by farm_id`,
        [person],
      );
    },

    async members(farmId: number): Promise<Member[]> {
      const rows = await sql.query<{ client_id: number; username: string; email: string; role: Role; account_owner: boolean; joined_at: Date }>(
        `select c.client_id, c.username, c.email, 'owner' as role, true as account_owner, f.created_at as joined_at
           from farms f join clients c on c.client_id = f.client_id where f.farm_id = $1
         union all
         select c.client_id, c.username, c.email, fm.role, false, fm.joined_at
           from farm_members fm join clients c on c.client_id = fm.client_id where fm.farm_id = $1
         order by account_owner desc, joined_at, client_id`,
        [farmId],
      );
      return rows.map((r) => ({ farm_id: farmId, client_id: r.client_id, username: r.username, email: r.email, role: r.role, account_owner: r.account_owner, joined_at: iso(r.joined_at) }));
    },

    /** A member's new role; false when they are not a member. */
    async setRole(farmId: number, person: number, newRole: Role): Promise<boolean> {
      const rows = await sql.query("update farm_members set role = $3 where farm_id = $1 and client_id = $2 returning 1", [farmId, person, newRole]);
      return rows.length > 0;
    },

    async removeMember(farmId: number, person: number): Promise<boolean> {
      const rows = await sql.query("delete from farm_members where farm_id = $1 and client_id = $2 returning 1", [farmId, person]);
      return rows.length > 0;
    },

    /** A new invitation to the farm with a role; only the hash of its code is kept. */
    async createInvitation(farmId: number, inviteRole: Role, note: string, codeHash: string, by: number, now: Date, expiresAt: Date): Promise<Invitation> {
      const [row] = await sql.query<{ invitation_id: number }>(
        "insert into farm_invitations (farm_id, role, code_hash, note, created_by, created_at, expires_at) values ($1, $2, $3, $4, $5, $6, $7) returning invitation_id",
        [farmId, inviteRole, codeHash, note, by, now, expiresAt],
      );
      const [created] = await sql.query<InvitationRow>(`${INVITATION_SELECT} where i.invitation_id = $1`, [row!.invitation_id]);
      return toInvitation(created!, now);
    },

    /** A farm's invitations, newest first (used, revoked and expired ones too, for a while). */
    async invitations(farmId: number, now: Date): Promise<Invitation[]> {
      const rows = await sql.query<InvitationRow>(`${INVITATION_SELECT} where i.farm_id = $1 and i.created_at > $2::timestamptz - interval '30 days' order by i.created_at desc, i.invitation_id desc`, [farmId, now]);
      return rows.map((r) => toInvitation(r, now));
    },

    /** Revokes an open invitation of the farm; the invitation as it is now, or undefined when the farm has no such invitation. */
    async revokeInvitation(farmId: number, invitationId: number, now: Date): Promise<Invitation | undefined> {
      await sql.query("update farm_invitations set revoked_at = $3 where farm_id = $1 and invitation_id = $2 and revoked_at is null and accepted_at is null", [farmId, invitationId, now]);
      const [row] = await sql.query<InvitationRow>(`${INVITATION_SELECT} where i.farm_id = $1 and i.invitation_id = $2`, [farmId, invitationId]);
      return row && toInvitation(row, now);
    },

    /** What a code offers, or why it cannot be used. */
    async preview(codeHash: string, now: Date): Promise<(InvitationPreview & { farm_id: number; invitation_id: number }) | InvitationRefusal> {
      const [row] = await sql.query<{ invitation_id: number; farm_id: number; farm_name: string; role: Role; invited_by: string | null; expires_at: Date; revoked_at: Date | null; accepted_at: Date | null }>(
        `select i.invitation_id, i.farm_id, f.name as farm_name, i.role, c.username as invited_by, i.expires_at, i.revoked_at, i.accepted_at
         from farm_invitations i join farms f on f.farm_id = i.farm_id left join clients c on c.client_id = i.created_by where i.code_hash = $1`,
        [codeHash],
      );
      if (!row || row.accepted_at) return "unknown";
      if (row.revoked_at) return "revoked";
      if (row.expires_at <= now) return "expired";
      return { invitation_id: row.invitation_id, farm_id: row.farm_id, farm_name: row.farm_name, role: row.role, invited_by: row.invited_by, expires_at: iso(row.expires_at) };
    },

    /**
     * Uses an invitation once: the person becomes a member with its role (a member already keeps
     * the higher of the two roles; the farm's account stays its Owner). Run in a transaction: the
     * update takes the invitation, so two people cannot both use it.
     */
    async accept(invitationId: number, person: number, now: Date): Promise<{ farm_id: number; role: Role } | undefined> {
      const [taken] = await sql.query<{ farm_id: number; role: Role; tenant: number }>(
        `update farm_invitations i set accepted_by = $2, accepted_at = $3 from farms f
         where i.invitation_id = $1 and f.farm_id = i.farm_id and i.accepted_at is null and i.revoked_at is null and i.expires_at > $3
         returning i.farm_id, i.role, f.client_id as tenant`,
        [invitationId, person, now],
      );
      if (!taken) return undefined;
      if (taken.tenant === person) return { farm_id: taken.farm_id, role: "owner" };
      const [row] = await sql.query<{ role: Role }>(
        `insert into farm_members (farm_id, client_id, role, added_by, joined_at)
         select $1, $2, $3, created_by, $4 from farm_invitations where invitation_id = $5
         on conflict (farm_id, client_id) do update set role = case
           when array_position(array['owner','manager','grower','viewer'], excluded.role) < array_position(array['owner','manager','grower','viewer'], farm_members.role) then excluded.role
           else farm_members.role end
         returning role`,
        [taken.farm_id, person, taken.role, now, invitationId],
      );
      return { farm_id: taken.farm_id, role: row!.role };
    },
  };
}

export type TeamRepo = ReturnType<typeof teamRepo>;
