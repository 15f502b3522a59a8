import { pbkdf2Sync, randomBytes } from "node:crypto";
import mqtt from "mqtt";
import { TOPICS } from "../../src/contract/mqtt.ts";

/**
 * Mosquitto as the external broker. A Mosquitto password file cannot hold our usernames (a MAC
 * has colons, the file's separator), so devices live in Mosquitto's dynamic-security plugin,
 * shipped with Debian's Mosquitto: a client per device (username = MAC, password = device key)
 * with a role that allows exactly the device's own topics, as the embedded broker does.
 */

const CONTROL = "$CONTROL/dynamic-security/v1";

/** A dynsec client password entry: PBKDF2-SHA512, as mosquitto_ctrl writes it. */
export function dynsecPassword(password: string, iterations = 101) {
  const salt = randomBytes(12);
  return { password: pbkdf2Sync(password, salt, iterations, 64, "sha512").toString("base64"), salt: salt.toString("base64"), iterations };
}

/** A dynamic-security ACL entry that allows. */
export const acl = (acltype: string, topic: string) => ({ acltype, topic, allow: true, priority: 0 });

function deviceRole(mac: string) {
  return {
    rolename: `device-${mac}`,
    acls: [
      acl("publishClientSend", TOPICS.telemetry(mac)),
      acl("publishClientSend", TOPICS.status(mac)),
      acl("publishClientSend", TOPICS.commandAck(mac)),
      acl("subscribeLiteral", TOPICS.command(mac)),
      acl("subscribeLiteral", TOPICS.config(mac)),
      acl("publishClientReceive", TOPICS.command(mac)),
      acl("publishClientReceive", TOPICS.config(mac)),
    ],
  };
}

const GATEWAY_ROLE = {
  rolename: "gateway",
  // Mosquitto checks a shared subscription with its $share/{group}/ prefix.
  acls: [
    acl("publishClientSend", "devices/#"),
    acl("publishClientReceive", "devices/#"),
    acl("subscribePattern", "devices/#"),
    acl("subscribePattern", "$share/+/devices/#"),
    // A node's last will (gateways/{client id}/gone), heard by one other node, which takes its session over.
    acl("publishClientSend", "gateways/#"),
    acl("publishClientReceive", "gateways/#"),
    acl("subscribePattern", "gateways/#"),
  ],
};

/**
 * The plugin's start-up file: an admin (to add devices at run time), the gateway user, and any
 * devices known now. Everything not allowed is denied, including receiving.
 */
export function dynsecConfig(o: { admin: { username: string; password: string }; gateway: { username: string; password: string }; devices?: { mac: string; key: string }[] }) {
  const devices = o.devices ?? [];
  return {
    defaultACLAccess: { publishClientSend: false, publishClientReceive: false, subscribe: false, unsubscribe: true },
    clients: [
      { username: o.admin.username, roles: [{ rolename: "admin" }], ...dynsecPassword(o.admin.password) },
      { username: o.gateway.username, roles: [{ rolename: "gateway" }], ...dynsecPassword(o.gateway.password) },
      ...devices.map((d) => ({ username: d.mac, clientid: d.mac, roles: [{ rolename: `device-${d.mac}` }], ...dynsecPassword(d.key) })),
    ],
    groups: [],
    roles: [
      {
        rolename: "admin",
        acls: [acl("publishClientSend", `${CONTROL}`), acl("publishClientReceive", `${CONTROL}/response`), acl("subscribeLiteral", `${CONTROL}/response`)],
      },
      GATEWAY_ROLE,
      ...devices.map((d) => deviceRole(d.mac)),
    ],
  };
}

/** Run-time commands that add (or re-key) a device in a running Mosquitto. */
export function dynsecDeviceCommands(mac: string, key: string) {
  const role = deviceRole(mac);
  return [
    { command: "deleteClient", username: mac },
    { command: "deleteRole", rolename: role.rolename },
    { command: "createRole", rolename: role.rolename, acls: role.acls },
    { command: "createClient", username: mac, clientid: mac, password: key, roles: [{ rolename: role.rolename }] },
  ];
}

/** Sends dynsec commands as the admin and waits for the broker's answer. Delete-of-missing errors are ignored. */
export async function applyDynsec(url: string, admin: { username: string; password: string }, commands: object[]): Promise<void> {
  const client = await mqtt.connectAsync(url, { username: admin.username, password: admin.password, reconnectPeriod: 0, connectTimeout: 5000 });
  try {
    await client.subscribeAsync(`${CONTROL}/response`);
    const answer = new Promise<{ responses: { command: string; error?: string }[] }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("Mosquitto did not answer the dynamic-security commands")), 5000);
      client.on("message", (_topic, payload) => {
        clearTimeout(timer);
        resolve(JSON.parse(payload.toString("utf8")));
      });
    });
    await client.publishAsync(CONTROL, JSON.stringify({ commands }));
    const { responses } = await answer;
    const failed = responses.filter((r) => r.error && !/^delete/.test(r.command));
    if (failed.length) throw new Error(`Mosquitto refused: ${failed.map((r) => `${r.command}: ${r.error}`).join("; ")}`);
  } finally {
    await client.endAsync();
  }
}
