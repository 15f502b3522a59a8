/**
 * Farm teams' values, without schemas: what the app's main thread uses (roles, rights, the words
 * of a refusal, audit kinds), so that it does not load the schema library (which compiles its
 * validators with eval, refused by the page's Content Security Policy). The schemas are in team.ts.
 */

/** A member's role on one farm, most rights first. The farm's account is its Owner without a membership row. */
export const ROLES = ["owner", "manager", "grower", "viewer"] as const;
export type Role = (typeof ROLES)[number];

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

/** An invitation code: 24 characters of base32 (120 bits), typed or in a link; spaces and dashes are ignored. */
export const INVITATION_CODE_LENGTH = 24;
export const normalizeInvitationCode = (raw: string): string => raw.replace(/[\s-]/g, "").toUpperCase();

/** What an audit entry is about. */
export const AUDIT_KINDS = ["farm", "mcu", "controller", "sensor", "profile", "link", "recipe", "batch", "member", "invitation", "rota", "command"] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
