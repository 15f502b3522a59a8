import type { TFunction } from "i18next";
import { useCallback, useMemo } from "react";
import type { FarmRole } from "../../contract/team.ts";
import { can, higherRole } from "../../contract/team-values.ts";
import type { Right, Role } from "../../contract/team.ts";
import { i18n, useLocale } from "../i18n/i18n.ts";
import { useCollection, useRecord } from "./hooks.ts";

/**
 * The person's role on each farm, as the app uses it to hide or disable what a role cannot do and
 * to say why (the sentence of the server's 403, contract/team.ts, in the reader's language). While
 * the roles are not known yet nothing is refused here: the server decides, and a person who owns
 * all their farms sees SPEC's screens.
 */

/** A role's name in the reader's language ("Viewer"). */
export const roleLabel = (t: TFunction<"team">, role: Role): string => t(`roles.${role}`);

/**
 * Why a role may not do something, in the reader's language: in English the words of the server's
 * 403 to the letter (the contract's `cannotText`: "A Viewer on this farm cannot switch controllers").
 */
export const roleRefusalText = (t: TFunction<"team">, role: Role, right: Right): string => t("refusal", { role: roleLabel(t, role), right: t(`rights.${right}`) });

/**
 * The team texts in the language of the moment, for the hooks below: their callers re-render on a
 * change of language through `useLocale()`, a light subscription, since a dashboard of thousands of
 * cards asks each card's refusal (a translation hook each would be many subscriptions).
 */
const teamTexts = i18n.getFixedT(null, "team");

const roleOn = (list: readonly FarmRole[], farmId: number | null | undefined): Role | null => (farmId == null ? null : (list.find((r) => r.farm_id === farmId)?.role ?? null));

/** The person's role on a farm; null while unknown (not loaded, or a farm they do not see). */
export function useFarmRole(farmId: number | null | undefined): Role | null {
  const select = useCallback((list: readonly FarmRole[]) => roleOn(list, farmId), [farmId]);
  return useCollection("farmRoles", select);
}

/** Why the person may not do `right` on a farm ("A Viewer on this farm cannot switch controllers"), or null when they may. */
export function useRefusal(farmId: number | null | undefined, right: Right): string | null {
  useLocale();
  const role = useFarmRole(farmId);
  return role && !can(role, right) ? roleRefusalText(teamTexts, role, right) : null;
}

/** The same for an MCU: its farm's role decides. */
export function useMcuRefusal(mcuId: number, right: Right): string | null {
  return useRefusal(useRecord("mcus", mcuId)?.farm_id, right);
}

/**
 * Why the person may not do `right` on something of an account as a whole (a profile, a recipe):
 * their own account's things they may; in another's, their highest role on its farms decides.
 */
export function useAccountRefusal(accountId: number | null | undefined, right: Right): string | null {
  useLocale();
  const select = useCallback(
    (list: readonly FarmRole[]) => {
      const roles = list.filter((r) => r.owner_id === accountId).map((r) => r.role);
      return roles.length === 0 ? null : roles.reduce(higherRole);
    },
    [accountId],
  );
  const role = useCollection("farmRoles", select);
  return role && !can(role, right) ? roleRefusalText(teamTexts, role, right) : null;
}

/** The farms where the person may do `right` (a farm picker's choices), by id; null while the roles are unknown. */
export function useFarmsWhere(right: Right): ReadonlySet<number> | null {
  const select = useCallback((list: readonly FarmRole[]) => (list.length === 0 ? null : list.filter((r) => can(r.role, right)).map((r) => r.farm_id).join(",")), [right]);
  const ids = useCollection("farmRoles", select);
  return useMemo(() => (ids === null ? null : new Set(ids === "" ? [] : ids.split(",").map(Number))), [ids]);
}
