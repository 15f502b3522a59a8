import { useCallback, useSyncExternalStore } from "react";
import type { Member } from "../../contract/team.ts";
import { useAppData } from "./provider.tsx";
import { keys } from "./store.ts";

/** A farm's Members list as a screen shows it: loading, failed with why, or ready. */
export type MembersLoad = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; value: Member[] };

/**
 * A farm's members, as the core keeps them while a screen shows them: current whoever changes them
 * (someone joins, leaves or is removed, a role changes: the socket says so), and the list on
 * screen kept while it loads again. `retry` loads it again after a failure.
 */
export function useFarmMembers(farmId: number): { state: MembersLoad; retry(): void } {
  const { core, store } = useAppData();
  const subscribe = useCallback((fn: () => void) => store.subscribe(keys.farmMembers(farmId), fn), [store, farmId]);
  const held = useSyncExternalStore(subscribe, () => store.getFarmMembers(farmId));
  const retry = useCallback(() => void core.reloadFarmMembers(farmId), [core, farmId]);
  const state: MembersLoad =
    held.members !== null ? { status: "ready", value: held.members } : held.load.state === "error" ? { status: "error", message: held.load.message ?? "" } : { status: "loading" };
  return { state, retry };
}
