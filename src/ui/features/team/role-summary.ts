import { RIGHTS, ROLE_LABELS, ROLE_RIGHTS, ROLES } from "../../../contract/team-values.ts";
import type { Right, Role } from "../../../contract/team.ts";

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * What a role may do, in one line, from the contract's table of rights: what it may beyond the
 * role below it ("Everything a Grower can, and change recipes; …"), so the lines stay short and
 * never drift from what the server enforces.
 */
export function roleSummary(role: Role): string {
  const rights = [...ROLE_RIGHTS[role]];
  const below = ROLES[ROLES.indexOf(role) + 1];
  if (below === undefined) return rights.length === 1 ? `Can only ${RIGHTS[rights[0]!]}` : `Can ${rights.map((r) => RIGHTS[r]).join("; ")}`;
  const more = rights.filter((r: Right) => !ROLE_RIGHTS[below].has(r)).map((r) => RIGHTS[r]);
  // The lowest role that sees the farm lists what it does beyond seeing it.
  if (below === "viewer") return [capitalised(RIGHTS.see), ...more].join("; ");
  return `Everything a ${ROLE_LABELS[below]} can, and: ${more.join("; ")}`;
}
