import type { FastifyInstance } from "fastify";
import type { LiveReading } from "../../src/contract/entities.ts";
import type { Database } from "../../server/db/database.ts";
import { farmsRepo } from "../../server/db/farms-repo.ts";
import { profilesRepo } from "../../server/db/profiles-repo.ts";
import { provisionDevices, randomMac } from "../../server/devices/provisioning.ts";
import { DEMO_PROFILES } from "../../server/simulator/demo.ts";
import { cookieOf, registration } from "../../server/test-support/test-server.ts";

/** One client's fleet for a level of the browser bench. */
export interface SeededFleet {
  clientId: number;
  username: string;
  password: string;
  /** MCUs in dashboard order (mcu_id): the probes first. */
  mcus: { mcuId: number; mac: string; key: string; name: string }[];
  probeNames: string[];
  farms: number;
}

/** Names that sort first and are easy to find: the probes lead the dashboard's order too (mcu_id). */
export const probeName = (i: number) => `Probe ${i + 1}`;

const SENSOR_TYPES = ["Humidity", "CO2", "Soil_temp", "Moisture"] as const;
const CONTROLLER_TYPES = ["Humidifier", "Irrigation", "Ac", "Ventilation"] as const;
const CONTROLLER_NAMES = { Humidifier: "Mist maker", Irrigation: "Drip line", Ac: "Cooling unit", Ventilation: "Exhaust fan" } as const;

/**
 * Seeds a new client with `count` MCUs spread over a few farms, each with 4 sensors and 4
 * controllers as in the demo, two thirds linked to one of 3 profiles (never the probes: a probe's
 * CO2 is a time stamp and would be marked out of profile). Rows go in with bulk SQL: the
 * repositories' one-by-one create (which reloads the client's whole list each time) would take
 * minutes at 5000 MCUs. The API then reads them back like any other client's.
 */
export async function seedFleet(app: FastifyInstance, db: Database, count: number, probes: number, label: string): Promise<SeededFleet> {
  const reg = registration({ username: `bench_${label}_${Date.now().toString(36)}` });
  const created = await app.inject({ method: "POST", url: "/api/clients", payload: reg });
  if (created.statusCode !== 201) throw new Error(`register failed: ${created.statusCode} ${created.body}`);
  const login = await app.inject({ method: "POST", url: "/api/clients/login", payload: { username: reg.username, password: reg.password } });
  const clientId = login.json().client.client_id as number;

  const farmCount = Math.min(8, Math.max(3, Math.ceil(count / 250)));
  const now = new Date();
  const devices = await provisionDevices(db, Array.from({ length: count }, () => ({ mac: randomMac(), kind: "mcu" as const, type: null })));
  const names = devices.map((_, i) => (i < probes ? probeName(i) : `Room ${String(i - probes + 1).padStart(4, "0")}`));

  const mcus = await db.transaction(async (tx) => {
    const farmIds: number[] = [];
    for (let f = 0; f < farmCount; f++) farmIds.push((await farmsRepo(tx).create(clientId, `Farm ${String.fromCharCode(65 + f)}`, `Site ${f + 1}`)).farm_id);
    const profileIds: number[] = [];
    for (const p of DEMO_PROFILES) profileIds.push((await profilesRepo(tx).create(clientId, p.name, p.config, now)).profile_id);

    await tx.query("update device_inventory set claimed_by = $1, claimed_at = $2 where mac = any($3::text[])", [clientId, now, devices.map((d) => d.mac)]);
    const rows = await tx.query<{ mcu_id: number; mac: string }>(
      `insert into mcus (client_id, farm_id, name, mac, status, created_at, updated_at)
       select $1, f, n, m, 'active', $2, $2 from unnest($3::int[], $4::text[], $5::text[]) with ordinality as t(f, n, m, i) order by i
       returning mcu_id, mac`,
      [clientId, now, devices.map((_, i) => farmIds[i % farmCount]!), names, devices.map((d) => d.mac)],
    );
    const idOf = new Map(rows.map((r) => [r.mac, r.mcu_id]));

    for (const [table, types] of [
      ["sensors", SENSOR_TYPES],
      ["controllers", CONTROLLER_TYPES],
    ] as const) {
      const kind = table === "sensors" ? "sensor" : "controller";
      const macs: string[] = [];
      const mcuIds: number[] = [];
      const typeList: string[] = [];
      const peripheralNames: string[] = [];
      for (const d of devices) {
        for (const [j, type] of types.entries()) {
          macs.push(randomMac());
          mcuIds.push(idOf.get(d.mac)!);
          typeList.push(type);
          peripheralNames.push(kind === "sensor" ? `${type.replace("_", " ")} ${j + 1}` : CONTROLLER_NAMES[type as keyof typeof CONTROLLER_NAMES]);
        }
      }
      await tx.query(
        `insert into device_inventory (mac, kind, type, claimed_by, claimed_at)
         select m, $1, t, $2, $3 from unnest($4::text[], $5::text[]) as u(m, t)`,
        [kind, clientId, now, macs, typeList],
      );
      await tx.query(
        `insert into ${table} (client_id, mcu_id, name, mac, type, created_at, updated_at)
         select $1, i, n, m, t, $2, $2 from unnest($3::int[], $4::text[], $5::text[], $6::text[]) as u(i, n, m, t)`,
        [clientId, now, mcuIds, peripheralNames, macs, typeList],
      );
    }

    // Two MCUs in three get a profile; the probes none.
    const linked = rows.slice(probes).filter((_, i) => i % 3 !== 2);
    await tx.query(
      `insert into profile_links (client_id, mcu_id, profile_id)
       select $1, i, p from unnest($2::int[], $3::int[]) as u(i, p)`,
      [clientId, linked.map((r) => r.mcu_id), linked.map((_, i) => profileIds[i % profileIds.length]!)],
    );
    return rows;
  });

  const keyOf = new Map(devices.map((d) => [d.mac, d.key]));
  return {
    clientId,
    username: reg.username,
    password: reg.password,
    mcus: mcus.map((r, i) => ({ mcuId: r.mcu_id, mac: r.mac, key: keyOf.get(r.mac)!, name: names[i]! })),
    probeNames: names.slice(0, probes),
    farms: farmCount,
  };
}

/**
 * For the wall view's bench: the probes join the first farm and its first profile. A probe's CO2
 * is a time stamp, far above any profile's threshold, so the probes are out of profile and lead
 * the first farm (trouble first, then list order): they are on the wall's first page, where the
 * bench watches them.
 */
export async function probesFirstOnWall(db: Database, fleet: SeededFleet): Promise<void> {
  const probeIds = fleet.mcus.slice(0, fleet.probeNames.length).map((m) => m.mcuId);
  if (probeIds.length === 0) return;
  await db.query(
    `update mcus set farm_id = (select min(farm_id) from farms where client_id = $1) where client_id = $1 and mcu_id = any($2::int[])`,
    [fleet.clientId, probeIds],
  );
  await db.query(
    `insert into profile_links (client_id, mcu_id, profile_id)
     select $1, m, (select min(profile_id) from setting_profiles where client_id = $1) from unnest($2::int[]) as u(m)`,
    [fleet.clientId, probeIds],
  );
}

/**
 * Stores the latest readings as the server's readings writer would (mcus.readings, last seen,
 * online), so a page that loads gets them in its first answers, as it would in production.
 */
export async function storeLatestReadings(db: Database, latest: Map<string, LiveReading>, at: Date): Promise<void> {
  if (latest.size === 0) return;
  await db.query(
    `update mcus set readings = u.r::jsonb, last_seen_at = $1, status = 'online'
     from unnest($2::text[], $3::text[]) as u(m, r) where mcus.mac = u.m`,
    [at, [...latest.keys()], [...latest.values()].map((r) => JSON.stringify(r))],
  );
}

/** Signs in as the fleet's client: the session cookie and the client record the app keeps. */
export async function signIn(app: FastifyInstance, fleet: SeededFleet): Promise<{ sid: string; client: unknown }> {
  const login = await app.inject({ method: "POST", url: "/api/clients/login", payload: { username: fleet.username, password: fleet.password } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  return { sid: cookieOf(login).slice("sid=".length), client: login.json().client };
}
