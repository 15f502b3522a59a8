import type { TFunction } from "i18next";
import { ROLE_RIGHTS, ROLES } from "../../../contract/team-values.ts";
import type { Right, Role } from "../../../contract/team.ts";
import { roleLabel } from "../../data/farm-roles.ts";

/** The first letter in capitals (Arabic has none: it stays as it is). */
const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * What a role may do, in one line, from the contract's table of rights: what it may beyond the
 * role below it ("Everything a Grower can, and: change recipes; …"), so the lines stay short and
 * never drift from what the server enforces. Each right is named by `rights.<right>`.
 */
export function roleSummary(t: TFunction<"team">, role: Role): string {
  const right = (r: Right) => t(`rights.${r}`);
  const list = (rights: readonly Right[]) => rights.map(right).join(t("roleSummary.separator"));
  const rights = [...ROLE_RIGHTS[role]];
  const below = ROLES[ROLES.indexOf(role) + 1];
  if (below === undefined) return rights.length === 1 ? t("roleSummary.only", { right: right(rights[0]!) }) : t("roleSummary.all", { rights: list(rights) });
  const more = rights.filter((r: Right) => !ROLE_RIGHTS[below].has(r));
  // The lowest role that sees the farm lists what it does beyond seeing it.
  if (below === "viewer") return capitalised(list(["see", ...more]));
  return t("roleSummary.beyond", { role: roleLabel(t, below), rights: list(more) });
}
