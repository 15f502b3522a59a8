import { type } from "arktype";

/**
 * Farm teams: who may do what on a farm. One table (`ROLE_RIGHTS`) is read by the server, which
 * enforces it on every farm-scoped route and socket event, and by the app, which hides or disables
 * what a role cannot do and says why in the same words.
 */

export * from "./team-values.ts";
import { AUDIT_KINDS, ROLES } from "./team-values.ts";
export const role = type.enumerated(...ROLES);

/** A member of a farm, as the Members screen lists them. */
export const member = type({
  farm_id: "number.integer",
  client_id: "number.integer",
  username: "string",
  email: "string",
  role,
  /** The farm's account (its owner by creation): not removable, its role not changeable. */
  account_owner: "boolean",
  joined_at: "string",
});
export type Member = typeof member.infer;

/** An invitation as its farm's members list it (never its code, which is shown once, to its creator). */
export const invitation = type({
  invitation_id: "number.integer",
  farm_id: "number.integer",
  role,
  /** A note for the owner (whom it was for); never shown to the invitee. */
  note: "string",
  created_by: "string | null",
  created_at: "string",
  expires_at: "string",
  state: "'open' | 'accepted' | 'revoked' | 'expired'",
  accepted_by: "string | null",
});
export type Invitation = typeof invitation.infer;

/** A new invitation: its code, shown once. */
export const createdInvitation = type({ invitation, code: "string" });
export type CreatedInvitation = typeof createdInvitation.infer;

/** What an invitation offers, shown to a person who opens its link before they accept. */
export const invitationPreview = type({ farm_name: "string", role, invited_by: "string | null", expires_at: "string" });
export type InvitationPreview = typeof invitationPreview.infer;

/** A farm a person may see, with their role on it. */
export const farmRole = type({ farm_id: "number.integer", owner_id: "number.integer", role });
export type FarmRole = typeof farmRole.infer;

/** One change, as the audit trail lists it: who, when, from where, what, and the record before and after. */
export const auditEntry = type({
  audit_id: "string",
  farm_id: "number.integer | null",
  actor: "string",
  address: "string",
  at: "string",
  kind: type.enumerated(...AUDIT_KINDS),
  entity_id: "string",
  action: "string",
  before: "Record<string, unknown> | null",
  after: "Record<string, unknown> | null",
});
export type AuditEntry = typeof auditEntry.infer;
export const auditPage = type({ entries: auditEntry.array(), next: "string | null" });
export type AuditPage = typeof auditPage.infer;
