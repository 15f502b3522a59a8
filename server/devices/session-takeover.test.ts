import { spawn, type ChildProcess } from "node:child_process";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOPICS } from "../../src/contract/mqtt.ts";
import { mqttTransport, type DeviceTransport } from "./device-transport.ts";
import { acl, applyDynsec } from "./mosquitto-dynsec.ts";
import { mosquittoAvailable, startMosquitto, type MosquittoProcess } from "../test-support/mosquitto-process.ts";
import { uniqueMac } from "../test-support/test-server.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a node is handed, each settled at once (its reading out). */
function heardBy(transport: DeviceTransport): string[] {
  const heard: string[] = [];
  transport.onMessage(() => {});
  transport.onTelemetry!((_mac, bytes, start, end, delivery) => {
    heard.push(bytes.toString("utf8", start, end));
    delivery?.settle();
  });
  return heard;
}
async function until(what: string, ok: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * QoS 1 telemetry through Mosquitto: node B (a child process) is handed readings and dies before
 * it settles them; node A hears B's last will, takes B's session over, gets what B held again and
 * skips those B had already sent out (the ids `delivered` names); then B's session is gone.
 */
describe.skipIf(!mosquittoAvailable())("a dead node's MQTT session taken over", { timeout: 60_000 }, () => {
  const device = { mac: uniqueMac(), key: "device-key-1" };
  const group = `takeover-${process.pid}`;
  const sessionB = `server-b-${process.pid}`;
  let mosquitto: MosquittoProcess;
  let b: ChildProcess | undefined;
  let a: DeviceTransport | undefined;
  let publisher: mqtt.MqttClient | undefined;

  beforeAll(async () => {
    mosquitto = await startMosquitto({ devices: [device] });
  });
  /** The device reports `{"<key>": n}` for n in [from, to), at QoS 1, one after another. */
  const publish = async (key: string, from: number, to: number) => {
    for (let n = from; n < to; n++) await publisher!.publishAsync(TOPICS.telemetry(device.mac), `{"${key}":${n}}`, { qos: 1 });
  };
  afterAll(async () => {
    b?.kill("SIGKILL");
    await publisher?.endAsync(true).catch(() => undefined);
    await a?.close().catch(() => undefined);
    await mosquitto?.stop();
  });

  it("hands node A what B held, less what B had sent out, once each; nothing is routed to B's session after", async () => {
    // Node B: every telemetry it is handed, printed; none settled.
    const heardByB: { text: string; packetId: number }[] = [];
    b = spawn(process.execPath, ["--import", "tsx", "server/test-support/session-takeover.child.ts", mosquitto.url, mosquitto.gateway.username, mosquitto.gateway.password, group, sessionB], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let buffered = "";
    b.stderr!.on("data", (d) => (out += d));
    b.stdout!.on("data", (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        out += `${line}\n`;
        if (line.startsWith("{")) heardByB.push(JSON.parse(line) as { text: string; packetId: number });
      }
    });
    await until("node B", () => out.includes("ready") || b!.exitCode !== null, 30_000);
    expect(out).toContain("ready");

    // Node A: what B sent out before it died is the first half of what B was handed.
    let alreadySent = new Set<number>();
    a = await mqttTransport({
      url: mosquitto.url,
      username: mosquitto.gateway.username,
      password: mosquitto.gateway.password,
      shareGroup: group,
      clientId: `server-a-${process.pid}`,
      delivered: async (session) => (session === sessionB ? alreadySent : new Set()),
    });
    const heardByA = heardBy(a);

    publisher = await mqtt.connectAsync(mosquitto.url, { clientId: device.mac, username: device.mac, password: device.key, reconnectPeriod: 0 });
    const send = (from: number, to: number) => publish("n", from, to);
    await send(0, 40);
    await until("both nodes to be handed all 40", () => heardByA.length + heardByB.length === 40);
    expect(heardByB.length).toBeGreaterThan(4);
    const sentOut = heardByB.slice(0, heardByB.length >> 1);
    alreadySent = new Set(sentOut.map((m) => m.packetId));
    const heldByB = heardByB.slice(heardByB.length >> 1).map((m) => m.text);
    const ownOfA = [...heardByA];

    b.kill("SIGKILL");
    await until("node A to take B's session over", () => a!.sessions!().takenOver === 1 && heardByA.length >= ownOfA.length + heldByB.length);
    await until("the takeover to end", () => a!.sessions!().resentSkipped === sentOut.length && a!.sessions!().unacknowledged === 0);
    expect(heardByA.slice(ownOfA.length).sort()).toEqual([...heldByB].sort());

    // B's session (and its share of the subscription) is gone: A is handed all that follows.
    await sleep(500);
    await send(40, 60);
    await until("node A to be handed the next 20", () => heardByA.length === ownOfA.length + heldByB.length + 20);
    const counts = new Map<string, number>();
    for (const t of heardByA) counts.set(t, (counts.get(t) ?? 0) + 1);
    expect([...counts].filter(([, c]) => c > 1)).toEqual([]);
    expect(a.sessions!().unacknowledged).toBe(0);
  });

  it("a node that stops leaves its session to the next node that starts: none of its telemetry is lost", async () => {
    const group2 = `${group}-2`;
    const gateway = { url: mosquitto.url, username: mosquitto.gateway.username, password: mosquitto.gateway.password, shareGroup: group2 };
    // Node C is handed telemetry and stops before it went out (none settled).
    const c = await mqttTransport({ ...gateway, clientId: `server-c-${process.pid}` });
    const heardByC: string[] = [];
    c.onMessage(() => {});
    c.onTelemetry!((_mac, bytes, start, end) => heardByC.push(bytes.toString("utf8", start, end)));
    const send = (from: number, to: number) => publish("m", from, to);
    // (Node A of the test before is in the other group: it is handed its own copy, settled.)
    await send(0, 10);
    await until("node C to be handed 10", () => heardByC.length === 10);
    await c.close();
    // While no node of the group runs, the broker keeps what comes for C's session.
    await send(10, 20);

    const d = await mqttTransport({ ...gateway, clientId: `server-d-${process.pid}` });
    const heardByD = heardBy(d);
    try {
      await until("node D to take C's session over", () => d.sessions!().takenOver === 1 && heardByD.length === 20);
      await sleep(500);
      await send(20, 30);
      await until("node D to be handed the next 10", () => heardByD.length === 30);
      expect([...heardByD].sort()).toEqual(Array.from({ length: 30 }, (_, n) => `{"m":${n}}`).sort());
      expect(d.sessions!().unacknowledged).toBe(0);
    } finally {
      await d.close();
    }
  });

  it("a node cut off by the broker resumes its session when it is let back: what was queued for it meanwhile is handed over, each once", async () => {
    const group3 = `${group}-3`;
    // Node F has a broker user of its own: the broker can cut it off (disable: no will) and let it back (enable).
    const userF = { username: `gateway-f-${process.pid}`, password: "gateway-f-secret" };
    await applyDynsec(mosquitto.url, mosquitto.admin, [{ command: "createClient", username: userF.username, password: userF.password, roles: [{ rolename: "gateway" }] }]);
    const common = { url: mosquitto.url, shareGroup: group3 };
    const e = await mqttTransport({ ...common, username: mosquitto.gateway.username, password: mosquitto.gateway.password, clientId: `server-e-${process.pid}` });
    const f = await mqttTransport({ ...common, ...userF, clientId: `server-f-${process.pid}` });
    const heard = { e: heardBy(e), f: heardBy(f) };
    const send = (from: number, to: number) => publish("r", from, to);
    try {
      await applyDynsec(mosquitto.url, mosquitto.admin, [{ command: "disableClient", username: userF.username }]);
      await sleep(300);
      // F's session keeps its share of the group's telemetry while F is away.
      await send(0, 40);
      await until("node E to be handed its share", () => heard.e.length > 0 && heard.e.length < 40);
      await sleep(300);
      expect(heard.e.length).toBeLessThan(40);
      await applyDynsec(mosquitto.url, mosquitto.admin, [{ command: "enableClient", username: userF.username }]);
      await until("node F to be handed what was queued for it", () => heard.e.length + heard.f.length === 40, 15_000);
      await send(40, 60);
      await until("all 60", () => heard.e.length + heard.f.length === 60);
      expect(new Set([...heard.e, ...heard.f]).size).toBe(60);
      expect(e.sessions!().takenOver + f.sessions!().takenOver).toBe(0);
    } finally {
      await e.close();
      await f.close();
    }
  });

  it("runs with a broker whose gateway role predates the wills (no gateways/#), and says so", async () => {
    const user = { username: `gateway-old-${process.pid}`, password: "gateway-old-secret" };
    await applyDynsec(mosquitto.url, mosquitto.admin, [
      { command: "createRole", rolename: "gateway-before-wills", acls: [acl("publishClientSend", "devices/#"), acl("publishClientReceive", "devices/#"), acl("subscribePattern", "devices/#"), acl("subscribePattern", "$share/+/devices/#")] },
      { command: "createClient", ...user, roles: [{ rolename: "gateway-before-wills" }] },
    ]);
    const logs: string[] = [];
    const g = await mqttTransport({ url: mosquitto.url, ...user, shareGroup: `${group}-4`, clientId: `server-g-${process.pid}`, log: (m) => logs.push(m) });
    const heard = heardBy(g);
    try {
      await publisher!.publishAsync(TOPICS.telemetry(device.mac), `{"g":1}`, { qos: 1 });
      await until("the reading", () => heard.includes(`{"g":1}`));
      await until("the warning", () => logs.some((l) => l.includes("needs gateways/#")));
    } finally {
      await g.close();
    }
  });
});
