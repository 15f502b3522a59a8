/**
 * Provisions devices into the inventory, as a manufacturer or installer does, and prints their
 * device keys and, for MCUs, the claim code and the text of the QR label that goes on the device
 * (the database keeps only hashes: both are shown once). Provisioning a MAC again re-keys it (a
 * factory reset: new key, new claim code, new label).
 *
 *   npm run provision -- --kind mcu --mac AA:BB:CC:DD:EE:FF
 *   npm run provision -- --kind sensor --type CO2 --mac AA:BB:CC:DD:EE:01
 *   npm run provision -- --kind mcu --count 500 --out fleet.json [--claim-for demo --farm "Load test"]
 *   ... [--mosquitto-url mqtt://127.0.0.1:1883 --mosquitto-admin admin:secret]   also adds them to Mosquitto
 *
 * With PGlite (no DATABASE_URL) stop the server first: PGlite is opened by one process at a time.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { deviceLabel } from "../src/contract/claim-code.ts";
import { CONTROLLER_TYPES, SENSOR_TYPES } from "../src/contract/entities.ts";
import { isMac, normalizeMac } from "../src/contract/mac.ts";
import { readConfig } from "./config.ts";
import { clientsRepo } from "./db/clients-repo.ts";
import { openPglite, openPostgres } from "./db/database.ts";
import type { DeviceKind } from "./db/inventory-repo.ts";
import { farmsRepo } from "./db/farms-repo.ts";
import { mcusRepo } from "./db/mcus-repo.ts";
import { migrate } from "./db/migrate.ts";
import { applyDynsec, dynsecDeviceCommands } from "./devices/mosquitto-dynsec.ts";
import { provisionDevices, randomMac } from "./devices/provisioning.ts";

const { values } = parseArgs({
  options: {
    kind: { type: "string", default: "mcu" },
    type: { type: "string" },
    mac: { type: "string", multiple: true },
    count: { type: "string" },
    out: { type: "string" },
    "claim-for": { type: "string" },
    farm: { type: "string", default: "Provisioned" },
    "mosquitto-url": { type: "string" },
    "mosquitto-admin": { type: "string" },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const kind = values.kind as DeviceKind;
if (!["mcu", "controller", "sensor"].includes(kind)) fail("--kind must be mcu, controller or sensor");
const types: readonly string[] = kind === "controller" ? CONTROLLER_TYPES : kind === "sensor" ? SENSOR_TYPES : [];
if (kind !== "mcu" && !types.includes(values.type ?? "")) fail(`--type must be one of ${types.join(", ")}`);
for (const m of values.mac ?? []) if (!isMac(m)) fail(`Invalid MAC address format: ${m}`);
const count = values.count === undefined ? 0 : Number(values.count);
if (!Number.isInteger(count) || count < 0 || count > 100_000) fail("--count must be a whole number up to 100000");
const macs = [...(values.mac ?? []).map(normalizeMac), ...Array.from({ length: count }, randomMac)];
if (macs.length === 0) fail("Give --mac (one or more) or --count N");
if (values["claim-for"] && kind !== "mcu") fail("--claim-for registers MCUs only");

const config = readConfig();
const db = config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(config.dataDir);
try {
  await migrate(db);
  const devices = await provisionDevices(db, macs.map((mac) => ({ mac, kind, type: kind === "mcu" ? null : values.type! })));

  const username = values["claim-for"];
  if (username) {
    const clientId = await clientsRepo(db).idOfUsernameOrEmail(username);
    if (clientId === undefined) fail(`No client ${username}`);
    await db.transaction(async (tx) => {
      const farms = await farmsRepo(tx).list(clientId);
      const farm = farms.find((f) => f.name === values.farm) ?? (await farmsRepo(tx).create(clientId, values.farm!, "Provisioned devices"));
      for (const [i, d] of devices.entries()) {
        await mcusRepo(tx).create(clientId, { name: `MCU ${String(i + 1).padStart(4, "0")}`, mac: d.mac, claim_code: d.claimCode!, farm_id: farm.farm_id }, new Date());
      }
    });
  }

  if (values["mosquitto-url"]) {
    const [user, ...rest] = (values["mosquitto-admin"] ?? "").split(":");
    if (!user || rest.length === 0) fail("--mosquitto-admin must be user:password");
    await applyDynsec(values["mosquitto-url"], { username: user, password: rest.join(":") }, devices.flatMap((d) => dynsecDeviceCommands(d.mac, d.key)));
  }

  if (values.out) {
    await mkdir(dirname(resolve(values.out)), { recursive: true });
    await writeFile(
      values.out,
      JSON.stringify(devices.map((d) => (d.claimCode ? { mac: d.mac, key: d.key, claim_code: d.claimCode, label: deviceLabel(d.mac, d.claimCode) } : { mac: d.mac, key: d.key })), null, 2),
    );
    console.log(`Provisioned ${devices.length} ${kind} device(s); keys written to ${values.out}${username ? `, registered to ${username}` : ""}`);
  } else {
    for (const d of devices) {
      console.log(`${d.mac}  ${d.kind}${d.type ? ` ${d.type}` : ""}  key: ${d.key}${d.claimCode ? `  claim code: ${d.claimCode}  label QR text: ${deviceLabel(d.mac, d.claimCode)}` : ""}`);
    }
  }
} finally {
  await db.close();
}
