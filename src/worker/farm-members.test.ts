import { describe, expect, it } from "vitest";
import { SOCKET_EVENTS } from "../contract/realtime.ts";
import type { Member } from "../contract/team.ts";
import { connectingTo, fakeSocket } from "../test-support/fake-socket.ts";
import { createDataCore, type DataCoreUpdate, type FarmMembersUpdate } from "./core.ts";
import { createMemorySavedLists } from "./saved-lists.ts";

const member = (client_id: number, role: Member["role"], account_owner = false): Member => ({
  farm_id: 3,
  client_id,
  username: `person${client_id}`,
  email: `person${client_id}@example.com`,
  role,
  account_owner,
  joined_at: "2026-11-23T10:00:00.000Z",
});

/**
 * A started core (client 7) whose server answers the Members list of farm 3 with `team.members`,
 * and whose socket the test plays; what it sends to the main thread about members is recorded.
 */
function harness() {
  const team = { members: [member(7, "owner", true), member(8, "viewer")], loads: 0 };
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? "GET"} ${String(input)}`;
    const body = (status: number, value: unknown) => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
    if (key === "GET /api/farms/3/members") {
      team.loads++;
      return body(200, team.members);
    }
    if (key === "PUT /api/farms/3/members/8") return body(200, { ...member(8, "grower") });
    if (key === "DELETE /api/farms/3/members/8") return body(200, { message: "Member removed" });
    // The lists a start loads: empty.
    return body(200, []);
  }) as typeof globalThis.fetch;
  const socket = fakeSocket();
  const core = createDataCore({ fetch, connect: connectingTo(socket), savedLists: createMemorySavedLists() });
  const updates: FarmMembersUpdate[] = [];
  core.subscribe((u: DataCoreUpdate) => u.kind === "farm-members" && updates.push(u));
  core.start(7);
  const settle = () => new Promise((r) => setTimeout(r, 10));
  const shown = () => updates.at(-1);
  return { core, team, serve: socket.serve, settle, shown };
}

describe("a farm's Members list in the core", () => {
  it("loads a farm's members when its screen watches it, and again when the socket says they changed", async () => {
    const h = harness();
    h.core.setMembersInterest([3]);
    await h.settle();
    expect(h.shown()).toEqual({ kind: "farm-members", farmId: 3, members: h.team.members, load: { state: "ready" } });

    // Someone joined, in another app.
    h.team.members = [...h.team.members, member(9, "grower")];
    h.serve(SOCKET_EVENTS.farmMembersChanged, { farm_id: 3 });
    await h.settle();
    expect(h.shown()?.members?.map((m) => m.client_id)).toEqual([7, 8, 9]);
    // Another farm's change, or a malformed payload, loads nothing.
    const loads = h.team.loads;
    h.serve(SOCKET_EVENTS.farmMembersChanged, { farm_id: 4 });
    h.serve(SOCKET_EVENTS.farmMembersChanged, { farm: 3 });
    await h.settle();
    expect(h.team.loads).toBe(loads);
  });

  it("loads it again after a reconnect, not at the first authentication, and forgets it when its screen closes", async () => {
    const h = harness();
    h.core.setMembersInterest([3]);
    await h.settle();
    h.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    await h.settle();
    expect(h.team.loads).toBe(1);
    h.serve(SOCKET_EVENTS.authenticated, { devices: [] });
    await h.settle();
    expect(h.team.loads).toBe(2);

    h.core.setMembersInterest([]);
    h.serve(SOCKET_EVENTS.farmMembersChanged, { farm_id: 3 });
    await h.settle();
    expect(h.team.loads).toBe(2);
  });

  it("shows this app's own role change and removal at once", async () => {
    const h = harness();
    h.core.setMembersInterest([3]);
    await h.settle();
    await h.core.changeMemberRole(3, 8, "grower");
    expect(h.shown()?.members?.find((m) => m.client_id === 8)?.role).toBe("grower");
    await h.core.removeMember(3, 8);
    expect(h.shown()?.members?.map((m) => m.client_id)).toEqual([7]);
  });

  it("empties the lists at sign-out, and loads them for whoever signs in next", async () => {
    const h = harness();
    h.core.setMembersInterest([3]);
    await h.settle();
    h.core.stop();
    expect(h.shown()).toEqual({ kind: "farm-members", farmId: 3, members: null, load: { state: "idle" } });
    h.core.start(7);
    await h.settle();
    expect(h.shown()?.load).toEqual({ state: "ready" });
  });
});
