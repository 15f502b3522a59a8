import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOPICS } from "../../src/contract/mqtt.ts";
import type { CommandAck, DeviceSnapshot, RealtimeBatchPayload, RealtimeDataPayload } from "../../src/contract/realtime.ts";
import { can, cannotText, ROLES, type Right, type Role } from "../../src/contract/team.ts";
import { createTestSystem, nextData, nextEvent, record, sleep, type TestOwner, type TestSystem } from "../test-support/test-system.ts";

/** Farm members over the realtime socket: what they receive, what they may switch, and losing it at once. */

const reading = (humidity: number) => ({ DHT: { temperature: 19.5, humidity, count: 1 }, batteryLevel: 80 });

let t: TestSystem;
let owner: TestOwner;
let onFarm: Awaited<ReturnType<TestOwner["device"]>>;
let offFarm: Awaited<ReturnType<TestOwner["device"]>>;
/** Another farm of the owner's account (where the second device's MCU is). */
let barnId: number;

async function join(role: Role, farmId = owner.farmId): Promise<TestOwner> {
  const person = await t.signUp();
  const created = await owner.http.post(`/api/farms/${farmId}/invitations`, { role });
  const accepted = await person.http.post("/api/invitations/accept", { code: created.json().code });
  if (accepted.statusCode !== 200) throw new Error(accepted.body);
  return person;
}

const devicesIn = (authenticated: unknown) => (authenticated as { devices: DeviceSnapshot[] }).devices.map((d) => d.deviceId);
const macsOf = (events: { name: string; payload: unknown }[]) =>
  events.flatMap((e) => (e.name === "realtimeData" ? [(e.payload as RealtimeDataPayload).deviceId] : (e.payload as RealtimeBatchPayload).data.map((d) => d.deviceId)));

beforeAll(async () => {
  t = await createTestSystem();
  owner = await t.signUp();
  onFarm = await owner.device();
  offFarm = await owner.device();
  // The second device's MCU moves to another farm of the account, where nobody is a member.
  const barn = (await owner.http.post("/api/farms", { name: "Barn", location: "Zahle", client_id: owner.clientId })).json();
  barnId = barn.farm_id;
  const moved = await owner.http.put(`/api/mcus/${offFarm.mcuId}`, { name: offFarm.name, farm_id: barn.farm_id, mac: offFarm.mac });
  if (moved.statusCode !== 200) throw new Error(moved.body);
});
afterAll(async () => t?.close());

describe("a member's socket", () => {
  it("gets the farm's devices and readings, and nothing of the account's other farms", async () => {
    const viewer = await join("viewer");
    const { socket, authenticated } = await viewer.socket();
    expect(devicesIn(authenticated)).toContain(onFarm.mac);
    expect(devicesIn(authenticated)).not.toContain(offFarm.mac);
    const log = record(socket, ["realtimeData", "realtimeBatch"]);
    const a = await t.rawMqtt(onFarm.mac, onFarm.key);
    const b = await t.rawMqtt(offFarm.mac, offFarm.key);
    const got = nextData(socket, (p) => p.deviceId === onFarm.mac && p.payload.DHT?.humidity === 83.5);
    await b.publishAsync(TOPICS.telemetry(offFarm.mac), JSON.stringify(reading(70.5)));
    await a.publishAsync(TOPICS.telemetry(onFarm.mac), JSON.stringify(reading(83.5)));
    await got;
    await sleep(300);
    expect(macsOf(log.events)).not.toContain(offFarm.mac);
  });

  it("switches only with a role that may: a Viewer is told why, a Grower's command goes to the device", async () => {
    const viewer = await join("viewer");
    const grower = await join("grower");
    const command = { deviceId: onFarm.mac, type: "status", value: { type: "status", onOff: true, target: "Humidifier" } };
    const send = async (who: TestOwner) => {
      const { socket } = await who.socket();
      return new Promise<CommandAck>((resolve) => socket.emit("sendCommand", command, resolve));
    };
    expect(await send(viewer)).toEqual({ ok: false, message: cannotText("viewer", "switchControllers"), reason: "role_cannot", params: { role: "viewer", right: "switchControllers" } });
    const sent = await send(grower);
    // Let through to the gateway: the device (not started here) is offline, which is the gateway's answer.
    expect("message" in sent ? sent.message : "").not.toMatch(/cannot|Unknown device/);
    const stranger = await t.signUp();
    expect(await send(stranger)).toEqual({ ok: false, message: "Unknown device", reason: "unknown_device" });
  });

  // The socket events' side of the role matrix: each event with its right, for every role and a stranger.
  const SOCKET_MATRIX: { event: "sendCommand" | "refresh"; right: Right; payload: () => object }[] = [
    { event: "sendCommand", right: "switchControllers", payload: () => ({ deviceId: onFarm.mac, type: "status", value: { type: "status", onOff: false, target: "Humidifier" } }) },
    { event: "refresh", right: "switchControllers", payload: () => ({ deviceId: onFarm.mac, mac: onFarm.mac }) },
  ];
  it.each(SOCKET_MATRIX)("$event needs $right, for every role", async ({ event, right, payload }) => {
    const answers: Record<string, string> = {};
    for (const role of [...ROLES, null]) {
      const who = role === null ? await t.signUp() : await join(role);
      const { socket, authenticated } = await who.socket();
      // Every role sees the farm's devices; a stranger none of them.
      expect(devicesIn(authenticated).includes(onFarm.mac)).toBe(role !== null);
      const ack = await new Promise<CommandAck>((resolve) => socket.emit(event, payload(), resolve));
      answers[role ?? "stranger"] = "message" in ack ? ack.message : "ok";
    }
    const expected = Object.fromEntries(
      [...ROLES, "stranger" as const].map((r) => [r, r === "stranger" ? "Unknown device" : can(r, right) ? answers[r] : cannotText(r, right)]),
    );
    expect(answers).toEqual(expected);
    // Those let through got the handler's own answer, not a refusal.
    for (const r of ROLES.filter((r) => can(r, right))) expect(answers[r]).not.toMatch(/cannot|Unknown device/);
  });

  it("stops receiving the farm within a second of the member's removal, and is told", async () => {
    const grower = await join("grower");
    const { socket } = await grower.socket();
    const log = record(socket, ["realtimeData", "realtimeBatch"]);
    const told = nextEvent<{ farm_id: number; role: Role | null }>(socket, "farmRolesChanged");
    const device = await t.rawMqtt(onFarm.mac, onFarm.key);
    let humidity = 60;
    const publishing = setInterval(() => void device.publishAsync(TOPICS.telemetry(onFarm.mac), JSON.stringify(reading((humidity += 0.1)))), 50);
    try {
      await nextData(socket, (p) => p.deviceId === onFarm.mac);
      const removed = await owner.http.del(`/api/farms/${owner.farmId}/members/${grower.clientId}`);
      expect(removed.statusCode).toBe(200);
      const removedAt = Date.now();
      expect(await told).toEqual({ farm_id: owner.farmId, role: null });
      await sleep(1500);
      const after = log.events.filter((e) => e.at > removedAt + 1000);
      expect(after).toEqual([]);
    } finally {
      clearInterval(publishing);
    }
  });

  it("tells the farm's account and members, and no one else, when its members change: a join, a role change, a removal, a departure", async () => {
    const viewer = await join("viewer");
    const neighbour = await join("owner", barnId);
    const stranger = await t.signUp();
    const ears = { owner: await owner.socket(), viewer: await viewer.socket(), neighbour: await neighbour.socket(), stranger: await stranger.socket() };
    const heard = Object.fromEntries(Object.entries(ears).map(([who, { socket }]) => [who, record(socket, ["farmMembersChanged"])]));
    const count = (who: string) => heard[who]!.events.length;
    const told = async (owners: number, viewers: number) => {
      for (let i = 0; i < 100 && (count("owner") < owners || count("viewer") < viewers); i++) await sleep(20);
      expect([count("owner"), count("viewer")]).toEqual([owners, viewers]);
    };

    const grower = await join("grower");
    await told(1, 1);
    expect((await owner.http.put(`/api/farms/${owner.farmId}/members/${grower.clientId}`, { role: "viewer" })).statusCode).toBe(200);
    await told(2, 2);
    expect((await owner.http.del(`/api/farms/${owner.farmId}/members/${grower.clientId}`)).statusCode).toBe(200);
    await told(3, 3);
    // The viewer leaves: their own sockets have left the farm (they are told by farmRolesChanged); the account hears.
    const left = nextEvent<{ farm_id: number; role: Role | null }>(ears.viewer.socket, "farmRolesChanged");
    expect((await viewer.http.del(`/api/farms/${owner.farmId}/members/${viewer.clientId}`)).statusCode).toBe(200);
    expect(await left).toEqual({ farm_id: owner.farmId, role: null });
    await told(4, 3);

    expect(heard.owner!.events.map((e) => e.payload)).toEqual(Array(4).fill({ farm_id: owner.farmId }));
    await sleep(200);
    expect(count("viewer")).toBe(3);
    expect(count("neighbour")).toBe(0);
    expect(count("stranger")).toBe(0);
  });
});
