import { type } from "arktype";

/**
 * Farm teams: who may do what on a farm. One table (`ROLE_RIGHTS`) is read by the server, which
 * enforces it on every farm-scoped route and socket event, and by the app, which hides or disables
 * what a role cannot do and says why in the same words.
 */

/** A member's role on one farm, most rights first. The farm's account is its Owner without a membership row. */
export const ROLES = ["owner", "manager", "grower", "viewer"] as const;
export type Role = (typeof ROLES)[number];
export const role = type.enumerated(...ROLES);

export const ROLE_LABELS: Record<Role, string> = { owner: "Owner", manager: "Manager", grower: "Grower", viewer: "Viewer" };

/** What each right lets a member do, as the sentence "A Viewer on this farm cannot …" ends. */
export const RIGHTS = {
  see: "see this farm",
  editFarm: "rename or delete the farm",
  manageMembers: "invite, change or remove members",
  manageDevices: "add, change or remove MCUs, controllers and sensors",
  manageProfiles: "change setting profiles",
  manageRecipes: "change recipes",
  manageBatches: "start, change or end batches",
  switchControllers: "switch controllers",
  acknowledgeAlarms: "acknowledge alarms",
  confirmPhases: "confirm phases",
  recordHarvests: "record harvests",
  readAudit: "read the audit trail",
  editRota: "change the on-call rota",
} as const;
export type Right = keyof typeof RIGHTS;

const GROWER: readonly Right[] = ["see", "switchControllers", "acknowledgeAlarms", "confirmPhases", "recordHarvests"];
const MANAGER: readonly Right[] = [...GROWER, "manageDevices", "manageProfiles", "manageRecipes", "manageBatches", "readAudit", "editRota"];

/** Every role's rights: Owner everything, Manager the farm's running, Grower the day's work, Viewer only seeing. */
export const ROLE_RIGHTS: Record<Role, ReadonlySet<Right>> = {
  owner: new Set(Object.keys(RIGHTS) as Right[]),
  manager: new Set(MANAGER),
  grower: new Set(GROWER),
  viewer: new Set<Right>(["see"]),
};

export const can = (r: Role, right: Right): boolean => ROLE_RIGHTS[r].has(right);

/** Why a role may not do something, in the words the server's 403 and the app's disabled controls use. */
export const cannotText = (r: Role, right: Right): string => `A ${ROLE_LABELS[r]} on this farm cannot ${RIGHTS[right]}`;

/** Of two roles, the one with more rights. */
export const higherRole = (a: Role, b: Role): Role => (ROLES.indexOf(a) <= ROLES.indexOf(b) ? a : b);

/** How long an invitation can be used, from its creation (days). */
export const INVITATION_DAYS = { default: 7, min: 1, max: 30 } as const;

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

/** An invitation code: 24 characters of base32 (120 bits), typed or in a link; spaces and dashes are ignored. */
export const INVITATION_CODE_LENGTH = 24;
export const normalizeInvitationCode = (raw: string): string => raw.replace(/[\s-]/g, "").toUpperCase();

/** What an audit entry is about. */
export const AUDIT_KINDS = ["farm", "mcu", "controller", "sensor", "profile", "link", "recipe", "batch", "member", "invitation", "rota", "command"] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
export const AUDIT_KIND_LABELS: Record<AuditKind, string> = {
  farm: "Farm",
  mcu: "MCU",
  controller: "Controller",
  sensor: "Sensor",
  profile: "Setting profile",
  link: "Profile link",
  recipe: "Recipe",
  batch: "Batch",
  member: "Member",
  invitation: "Invitation",
  rota: "On-call rota",
  command: "Command",
};

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
