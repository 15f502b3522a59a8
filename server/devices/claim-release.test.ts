import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLAIM_REFUSED } from "../../src/contract/claim-code.ts";
import { TOPICS } from "../../src/contract/mqtt.ts";
import { inventoryRepo } from "../db/inventory-repo.ts";
import { createTestSystem, nextData, record, sampleConfig, sleep, type TestSystem } from "../test-support/test-system.ts";
import { createTestServer, uniqueMac, type TestServer } from "../test-support/test-server.ts";
import { DEMO_MCU_MACS, DEMO_STOCK } from "../simulator/demo.ts";
import { claimCodeMatches, demoClaimCode, hashDeviceKey } from "./device-keys.ts";

/** Waits until `check` holds (at most 10 s), then asserts it. */
async function until(check: () => boolean | Promise<boolean>, what = "condition"): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) await sleep(50);
  expect(await check(), what).toBe(true);
}

/**
 * A MAC alone claims nothing. Before: a released MCU was claimed by another
 * client who knew only its MAC, who then got its live data and commanded it; the old owner's
 * retained config stayed on the broker; unknown and claimed MACs got different answers.
 */
describe("device ownership: claim codes, and what a release leaves behind", () => {
  let t: TestSystem;
  beforeAll(async () => {
    t = await createTestSystem();
  });
  afterAll(() => t?.close());

  it("answers an unknown MAC, a wrong code, and someone else's device with its right code alike", async () => {
    const owner = await t.signUp();
    const stranger = await t.signUp();
    const held = await t.provision();
    expect((await owner.http.post("/api/mcus", { name: "Held", ...pick(held), farm_id: owner.farmId })).statusCode).toBe(201);
    const stock = await t.provision();

    const attempts = {
      unknown: { mac: uniqueMac(), claim_code: stock.claim_code },
      wrongCode: { mac: stock.mac, claim_code: held.claim_code },
      someoneElses: pick(held),
    };
    const answers = [];
    for (const [what, device] of Object.entries(attempts)) {
      const res = await stranger.http.post("/api/mcus", { name: what, ...device, farm_id: stranger.farmId, status: "active" });
      answers.push({ status: res.statusCode, body: res.json() });
    }
    expect(answers).toEqual(Array(3).fill({ status: 400, body: { code: "VALIDATION", message: CLAIM_REFUSED, reason: "claim_refused" } }));
    expect((await stranger.http.get(`/api/mcus/by-client/${stranger.clientId}`)).json()).toEqual([]);
    // The stock device is still free for whoever holds its label.
    expect((await stranger.http.post("/api/mcus", { name: "Mine", ...pick(stock), farm_id: stranger.farmId })).statusCode).toBe(201);
  });

  it("releasing an MCU clears its retained config and rotates its key; the next owner needs the code, and gets nothing of the last", async () => {
    const first = await t.signUp();
    const dev = await first.device();
    const code = dev.claim_code;
    await dev.sim.start();
    const profile = (await first.http.post("/api/setting-profiles", { name: "Pinning", client_id: first.clientId, config: sampleConfig })).json();
    await first.http.post("/api/setting-profiles/link", { mcu_id: dev.mcuId, profile_id: profile.profile_id });
    await until(() => dev.sim.configReceived?.ventilation.co2_threshold === 1200, "the device has its owner's profile");
    const { socket: firstSocket } = await first.socket();
    const firstData = nextData(firstSocket, (p) => p.deviceId === dev.mac);
    dev.sim.report();
    await firstData;
    const oldKey = dev.sim.key;

    expect((await first.http.del(`/api/mcus/${dev.mcuId}`)).json()).toEqual({ message: "MCU deleted successfully" });
    await sleep(100); // a batch the server coalesced before the release may still be on its way
    const heardByFirst = record(firstSocket, ["realtimeData", "realtimeBatch", "deviceStatusUpdate"]);

    // The previous owner's profile is gone from the broker and from the device.
    await until(() => dev.sim.configReceived === null, "the device lost its old owner's profile");
    // The device was sent a new key, switched to it, and the old one no longer opens anything.
    await until(() => dev.sim.key !== oldKey && dev.sim.connected, "the device reconnected with a new key");
    await until(async () => (await inventoryRepo(t.db).get(dev.mac))?.pending_key === null, "the new key is the device key");
    expect((await inventoryRepo(t.db).get(dev.mac))?.key_hash).toBe(hashDeviceKey(dev.sim.key));
    await expect(t.rawMqtt(dev.mac, oldKey, { clientId: dev.mac })).rejects.toThrow(/Bad username or password|Not authorized/);
    // A fresh subscriber as the device finds neither the old config nor a key waiting.
    const probe = await t.rawMqtt(dev.mac, dev.sim.key);
    const retained: string[] = [];
    probe.on("message", (topic, payload, packet) => packet.retain && payload.length > 0 && retained.push(topic));
    await probe.subscribeAsync([TOPICS.config(dev.mac), TOPICS.key(dev.mac)], { qos: 1 });
    await sleep(300);
    expect(retained).toEqual([]);
    await probe.endAsync();
    await until(() => dev.sim.connected, "the device is back after the probe took its client id");

    // Someone who knows only the MAC cannot take it; the holder of the label can.
    const next = await t.signUp();
    const guess = await next.http.post("/api/mcus", { name: "Taken?", mac: dev.mac, claim_code: "7K2M-9QXD-4TWA", farm_id: next.farmId });
    expect(guess.json()).toEqual({ code: "VALIDATION", message: CLAIM_REFUSED, reason: "claim_refused" });
    const { socket: nextSocket } = await next.socket();
    const claimed = await next.http.post("/api/mcus", { name: "Second life", mac: dev.mac, claim_code: code, farm_id: next.farmId });
    expect(claimed.statusCode, claimed.body).toBe(201);
    const nextOwnersData = nextData(nextSocket, (p) => p.deviceId === dev.mac);
    dev.sim.report();
    await nextOwnersData;
    // Its new owner's device runs on defaults until they link a profile of their own.
    expect(dev.sim.configReceived).toBeNull();
    // Nothing of the device reaches its previous owner any more, and it cannot command it.
    const ack = await new Promise((resolve) =>
      firstSocket.emit("sendCommand", { deviceId: dev.mac, type: "status", value: { type: "status", onOff: true, target: "AC" } }, resolve),
    );
    expect(ack).toMatchObject({ ok: false });
    expect(heardByFirst.events.filter((e) => JSON.stringify(e.payload).includes(dev.mac))).toEqual([]);
  });

  it("sends a pending key again after a restart of the embedded broker, and only that key or the current one connect", async () => {
    const owner = await t.signUp();
    const dev = await owner.device();
    // Released while the device is off: the new key waits for it, retained.
    await owner.http.del(`/api/mcus/${dev.mcuId}`);
    const db = t.db;
    await until(async () => (await inventoryRepo(db).get(dev.mac))?.pending_key != null, "a key is pending");
    const pending = (await inventoryRepo(db).get(dev.mac))!.pending_key!;
    // A second release (it was claimed and given back again) keeps the key the device may already have.
    await inventoryRepo(db).release(dev.mac);
    expect((await inventoryRepo(db).get(dev.mac))!.pending_key).toBe(pending);
    // The broker lost its retained messages; the device comes online with its old key and is sent the pending one.
    await t.system.gateway.publishKey(dev.mac, null);
    await t.system.republishPendingKeys();
    await dev.sim.start();
    await until(() => dev.sim.key === pending && dev.sim.connected, "the device switched to the pending key");
    await until(async () => (await inventoryRepo(db).get(dev.mac))?.key_hash === hashDeviceKey(pending), "the pending key became the device key");
    await expect(t.rawMqtt(dev.mac, dev.key, { clientId: `${dev.mac}` })).rejects.toThrow();
  });
});

describe("refused claims are limited per account and address", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ config: { claimGuard: { refusedPerWindow: 3, windowMs: 60_000 } } });
  });
  afterAll(() => server?.close());

  it("answers 429 with Retry-After after the refusals, even for the right code, until the window passes", async () => {
    const c = await server.signUp();
    const farm = (await c.post("/api/farms", { name: "Guess farm", location: "Loopback", client_id: c.clientId })).json();
    const device = await c.mcuDevice();
    for (let i = 0; i < 3; i++) {
      const res = await c.post("/api/mcus", { name: "Guess", mac: device.mac, claim_code: `7K2M-9QXD-4TW${i}`, farm_id: farm.farm_id });
      expect(res.json().message).toBe(CLAIM_REFUSED);
    }
    const blocked = await c.post("/api/mcus", { name: "Guess", ...device, farm_id: farm.farm_id });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers["retry-after"]).toBe("60");
    expect(blocked.json()).toEqual({ code: "RATE_LIMITED", message: "Too many MCU claims were refused. Try again in 1 minute.", reason: "too_many_claims", params: { retry_seconds: 60 } });
    // Another account from the same address waits too (the address used up its refusals).
    const other = await server.signUp();
    const farm2 = (await other.post("/api/farms", { name: "Other farm", location: "Loopback", client_id: other.clientId })).json();
    expect((await other.post("/api/mcus", { name: "X", ...(await other.mcuDevice()), farm_id: farm2.farm_id })).statusCode).toBe(429);
    server.clock.advance(60_000);
    expect((await c.post("/api/mcus", { name: "Mine at last", ...device, farm_id: farm.farm_id })).statusCode).toBe(201);
  });

  it("never slows an installer adding many devices with their right codes", async () => {
    const c = await server.signUp();
    const farm = (await c.post("/api/farms", { name: "Fleet", location: "Loopback", client_id: c.clientId })).json();
    for (let i = 0; i < 20; i++) expect((await c.post("/api/mcus", { name: `Bay ${i}`, ...(await c.mcuDevice()), farm_id: farm.farm_id })).statusCode).toBe(201);
  });

  it("keeps only a hash of a claim code", async () => {
    const { mac, claim_code } = await (await server.signUp()).mcuDevice();
    const row = (await inventoryRepo(server.db).get(mac))!;
    expect(JSON.stringify(row)).not.toContain(claim_code.replace(/-/g, ""));
    expect(JSON.stringify(row)).not.toContain(claim_code);
    expect(claimCodeMatches(mac, claim_code.toLowerCase(), row.claim_hash)).toBe(true);
    expect(claimCodeMatches(mac, "7K2M-9QXD-4TWA", row.claim_hash)).toBe(false);
  });
});

const pick = (d: { mac: string; claim_code: string }) => ({ mac: d.mac, claim_code: d.claim_code });

describe("the demo's labels", () => {
  it("are the ones the README lists", async () => {
    const readme = (await readFile(new URL("../../README.md", import.meta.url), "utf8")).replace(/\s+/g, " ");
    for (const mac of DEMO_STOCK.mcus) expect(readme).toContain(`| \`${mac}\` | \`${demoClaimCode(mac)}\` |`);
    for (const mac of DEMO_MCU_MACS) expect(readme).toMatch(new RegExp(`\`(${mac}|:${mac.slice(-2)})\` \`${demoClaimCode(mac)}\``));
  });
});
