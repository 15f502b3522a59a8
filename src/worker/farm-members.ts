import { toCoreError } from "../contract/core-error.ts";
import type { LoadState } from "../contract/live.ts";
import type { Member } from "../contract/team.ts";

/** A farm's Members list as the core holds it for the screen: the list (null before its first answer) and how its load stands. */
export interface FarmMembersUpdate {
  kind: "farm-members";
  farmId: number;
  members: Member[] | null;
  load: LoadState;
}

interface Held {
  members: Member[] | null;
  load: LoadState;
  /** The latest load's number: an older answer that comes after it is dropped. */
  request: number;
}

/**
 * The Members lists on screen, by farm. A farm's list is loaded when a screen starts watching it,
 * again when the socket says its members changed (someone joined, left or was removed, or a role
 * changed, in any app) and after a reconnect (a change made meanwhile was not heard), and changed
 * at once by this app's own role changes and removals. A list on screen stays while it loads again.
 */
export function createFarmMembers({ load, send }: { load(farmId: number): Promise<Member[]>; send(update: FarmMembersUpdate): void }) {
  const held = new Map<number, Held>();
  let requests = 0;

  const sendOf = (farmId: number, h: Held) => send({ kind: "farm-members", farmId, members: h.members, load: h.load });

  function reload(farmId: number): void {
    const h = held.get(farmId);
    if (!h) return;
    const request = (h.request = ++requests);
    if (h.members === null && h.load.state !== "loading") {
      h.load = { state: "loading" };
      sendOf(farmId, h);
    }
    load(farmId).then(
      (members) => {
        if (held.get(farmId) !== h || h.request !== request) return;
        h.members = members;
        h.load = { state: "ready" };
        sendOf(farmId, h);
      },
      (err: unknown) => {
        if (held.get(farmId) !== h || h.request !== request) return;
        h.load = { state: "error", message: toCoreError(err).message };
        sendOf(farmId, h);
      },
    );
  }

  return {
    /** The farms whose Members list is on screen: those new to the set are loaded, those gone forgotten. */
    setInterest(farmIds: readonly number[], started: boolean): void {
      const wanted = new Set(farmIds);
      for (const id of held.keys()) if (!wanted.has(id)) held.delete(id);
      for (const id of wanted) {
        if (held.has(id)) continue;
        const h: Held = { members: null, load: { state: "idle" }, request: 0 };
        held.set(id, h);
        if (started) reload(id);
      }
    },
    /** Loads a farm's list again (the socket said it changed; Try again), if it is on screen. */
    reload,
    /** Loads every list on screen again (signed in, or the socket is back). */
    reloadAll(): void {
      for (const id of held.keys()) reload(id);
    },
    /** A change this app made, shown at once (the socket's word of it loads the list again). */
    update(farmId: number, change: (members: Member[]) => Member[]): void {
      const h = held.get(farmId);
      if (!h?.members) return;
      h.members = change(h.members);
      sendOf(farmId, h);
    },
    /** Signed out: every list on screen is emptied, and loads again for whoever signs in next. */
    clear(): void {
      for (const [id, h] of held) {
        h.request = ++requests;
        if (h.members === null && h.load.state === "idle") continue;
        h.members = null;
        h.load = { state: "idle" };
        sendOf(id, h);
      }
    },
  };
}
