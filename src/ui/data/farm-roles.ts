import type { TFunction } from "i18next";
import { useCallback, useEffect, useMemo } from "react";
import type { FarmRole } from "../../contract/team.ts";
import { can, higherRole } from "../../contract/team-values.ts";
import type { Right, Role } from "../../contract/team.ts";
import { notify } from "../components/toasts.ts";
import { i18n, useLocale } from "../i18n/i18n.ts";
import { useCollection, useRecord } from "./hooks.ts";
import { useAppData, type AppData } from "./provider.tsx";
import { keys } from "./store.ts";

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

/**
 * What the role notices of one app know: whether they are on, the person's roles when last seen,
 * the farms' names (a farm taken away is out of the farms list by the time it is told), and the
 * farms the person is leaving themself.
 */
interface RoleWatch {
  on: boolean;
  seen: { clientId: number; roles: ReadonlyMap<number, FarmRole> } | null;
  names: Map<number, string>;
  leaving: Set<number>;
}

const roleWatches = new WeakMap<AppData["store"], RoleWatch>();

function roleWatchOf(store: AppData["store"]): RoleWatch {
  let watch = roleWatches.get(store);
  if (!watch) roleWatches.set(store, (watch = { on: false, seen: null, names: new Map(), leaving: new Set() }));
  return watch;
}

/**
 * Compares the person's roles with those last seen, and tells what someone else changed on a farm
 * shared with them: the farm taken away (removed from its members, or the farm deleted) or their
 * role on it changed. The lists follow by themselves (the core reloads them); without a word, a
 * farm vanishing from an open dashboard reads as lost data. The person's own farms and what they
 * did themself (leaving, joining) say nothing here.
 */
function compareRoles({ store, session }: Pick<AppData, "store" | "session">, watch: RoleWatch): void {
  for (const farm of store.get("farms")) watch.names.set(farm.farm_id, farm.name);
  const load = store.getLoad("farmRoles").state;
  // Signed out (the lists are idle again): the next person's roles are not compared with these.
  if (load === "idle") {
    watch.seen = null;
    watch.leaving.clear();
    return;
  }
  // A screen drawn without a session (a component's test) has no person to tell.
  const clientId = session.getClient?.()?.client_id ?? null;
  if (clientId === null || load !== "ready") return;
  const roles = new Map(store.get("farmRoles").map((r) => [r.farm_id, r]));
  const before = watch.seen?.clientId === clientId ? watch.seen.roles : null;
  watch.seen = { clientId, roles };
  if (!before) return;
  for (const [farmId, was] of before) {
    if (was.owner_id === clientId) continue;
    const now = roles.get(farmId);
    const name = watch.names.get(farmId);
    if (!now) {
      if (watch.leaving.delete(farmId)) continue;
      const text = name === undefined ? teamTexts("roleNotice.removedUnnamed") : teamTexts("roleNotice.removed", { farm: name });
      notify.info(text, { toastId: `farm-role-${farmId}` });
    } else if (now.role !== was.role) {
      const role = roleLabel(teamTexts, now.role);
      const text = name === undefined ? teamTexts("roleNotice.changedUnnamed", { role }) : teamTexts("roleNotice.changed", { farm: name, role });
      notify.info(text, { toastId: `farm-role-${farmId}` });
    }
  }
}

/**
 * Tells the person when someone else takes a shared farm away from them or changes their role on
 * it (compareRoles), started by every signed-in screen (the routes' guard) and kept for as long as
 * the app runs: a person who only opens the wall, the alarms or the settings, which never ask
 * their roles, is told too, and a farm's cards leaving the screen with the farm end nothing. The
 * roles themselves load whenever the socket connects (their collection's `loadsOnConnect`).
 */
export function useRoleNotices(): void {
  const { store, session } = useAppData();
  useEffect(() => {
    const watch = roleWatchOf(store);
    if (watch.on) return;
    watch.on = true;
    const check = () => compareRoles({ store, session }, watch);
    for (const key of [keys.entities("farmRoles"), keys.load("farmRoles"), keys.entities("farms")]) store.subscribe(key, check);
    check();
  }, [store, session]);
}

/**
 * The person is leaving a farm themself (its Members screen says so): its leaving from their roles
 * is not told as if someone else took it away. Answers the undo, for a leave that failed.
 */
export function leavingFarm(store: AppData["store"], farmId: number): () => void {
  const { leaving } = roleWatchOf(store);
  leaving.add(farmId);
  return () => leaving.delete(farmId);
}
