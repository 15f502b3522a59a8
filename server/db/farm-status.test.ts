import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PATHS } from "../../src/contract/api.ts";
import type { AlarmKind, AlarmState } from "../../src/contract/alarms-values.ts";
import type { Farm, LiveReading } from "../../src/contract/entities.ts";
import { createTestServer, sampleConfig, type TestClient, type TestServer } from "../test-support/test-server.ts";

/**
 * SPEC §3 farm status in the API, derived from the farm's MCUs when it is read: offline
 * when none is online (said online and reported within 120 s), warning while one of them has an
 * unresolved alarm (open or acknowledged), otherwise active. A reading outside the profile counts
 * only through its alarm, i.e. once it has lasted the grace period.
 */
describe("farm status", () => {
  let server: TestServer;
  let c: TestClient;
  let profileId: number;
  beforeAll(async () => {
    server = await createTestServer();
    c = await server.signUp();
    profileId = (await c.post(API_PATHS.profiles, { name: "Fruiting", client_id: c.clientId, config: sampleConfig })).json().profile_id;
  });
  afterAll(() => server.close());

  const fine: LiveReading = { DHT: { temperature: 18, humidity: 88, count: 1 }, CO2: { co2: 900, count: 1 }, batteryLevel: 80 };
  const highCo2: LiveReading = { ...fine, CO2: { co2: 1500, count: 1 } };

  type AlarmSetup = { kind: AlarmKind; state: AlarmState };
  type McuSetup = { status: string; secondsAgo?: number; reading?: LiveReading; linked?: boolean; alarms?: AlarmSetup[] };

  /** An alarm row as the alarm engine leaves it (opened 10 minutes ago; acknowledged or resolved since). */
  async function addAlarm(mcuId: number, { kind, state }: AlarmSetup): Promise<void> {
    const opened = new Date(server.clock.now - 600_000);
    const later = new Date(server.clock.now - 60_000);
    await server.db.query(
      `insert into alerts (client_id, mcu_id, type, raised_at, title, body, state, acknowledged_at, acknowledged_by, resolved_at)
       values ($1, $2, $3, $4, 'Room: alarm', 'Something is wrong.', $5, $6, $7, $8)`,
      [c.clientId, mcuId, kind, opened, state, state === "acknowledged" ? later : null, state === "acknowledged" ? "grower" : null, state === "resolved" ? later : null],
    );
  }

  async function farmWith(mcus: McuSetup[]): Promise<number> {
    const farmId = (await c.post(API_PATHS.farms, { name: `Farm ${Math.random()}`, location: "Byblos", client_id: c.clientId })).json().farm_id as number;
    for (const m of mcus) {
      const mcu = (await c.post(API_PATHS.mcus, { name: "Room", ...(await c.mcuDevice()), farm_id: farmId, status: "active" })).json();
      if (m.linked) await c.post(API_PATHS.link, { mcu_id: mcu.mcu_id, profile_id: profileId });
      const seen = m.secondsAgo === undefined ? null : new Date(server.clock.now - m.secondsAgo * 1000);
      await server.db.query("update mcus set status = $2, readings = $3, last_seen_at = $4 where mcu_id = $1", [
        mcu.mcu_id,
        m.status,
        m.reading ? JSON.stringify(m.reading) : null,
        seen,
      ]);
      for (const alarm of m.alarms ?? []) await addAlarm(mcu.mcu_id, alarm);
    }
    return farmId;
  }

  async function statusOf(farmId: number): Promise<string> {
    const farms = (await c.get(API_PATHS.farmsOfClient(c.clientId))).json() as Farm[];
    return farms.find((f) => f.farm_id === farmId)!.status;
  }

  const online = (extra: Partial<McuSetup> = {}): McuSetup => ({ status: "online", secondsAgo: 5, reading: fine, linked: true, ...extra });

  it.each<[string, McuSetup[], string]>([
    ["no MCUs", [], "active"],
    ["an MCU never heard", [{ status: "active" }], "offline"],
    ["an online MCU reporting within its profile", [online()], "active"],
    ["an online MCU with CO2 above its profile, its alarm not open yet (grace period)", [online({ reading: highCo2 })], "active"],
    ["an online MCU with an open CO2 alarm", [online({ reading: highCo2, alarms: [{ kind: "co2_high", state: "open" }] })], "warning"],
    ["an online MCU whose alarm was acknowledged", [online({ reading: highCo2, alarms: [{ kind: "co2_high", state: "acknowledged" }] })], "warning"],
    ["an online MCU whose alarms all resolved", [online({ alarms: [{ kind: "co2_high", state: "resolved" }, { kind: "battery_low", state: "resolved" }] })], "active"],
    ["an online MCU with an open low-battery alarm and no profile", [online({ linked: false, reading: { ...fine, batteryLevel: 24 }, alarms: [{ kind: "battery_low", state: "open" }] })], "warning"],
    ["an MCU that said online but has not reported for 121 s", [{ status: "online", secondsAgo: 121, reading: fine }], "offline"],
    ["an MCU that reported but said offline", [{ status: "offline", secondsAgo: 5, reading: fine }], "offline"],
    ["every MCU offline, with open alarms", [{ status: "offline", secondsAgo: 300, reading: fine, alarms: [{ kind: "mcu_offline", state: "open" }] }, { status: "offline", secondsAgo: 300, alarms: [{ kind: "mcu_offline", state: "acknowledged" }] }], "offline"],
    ["an MCU offline with its alarm open beside an online one", [{ status: "offline", secondsAgo: 300, reading: fine, alarms: [{ kind: "mcu_offline", state: "open" }] }, online()], "warning"],
    ["an offline MCU whose alarm resolved beside an online one", [{ status: "offline", secondsAgo: 300, alarms: [{ kind: "mcu_offline", state: "resolved" }] }, online()], "active"],
  ])("is derived from its MCUs' alarms: %s -> %s", async (_name, mcus, expected) => {
    expect(await statusOf(await farmWith(mcus))).toBe(expected);
  });

  it("is derived in the answer of an update too", async () => {
    const farmId = await farmWith([online({ alarms: [{ kind: "humidity_low", state: "open" }] })]);
    const res = await c.put(API_PATHS.farm(farmId), { name: "Renamed", location: "Byblos" });
    expect(res.json()).toMatchObject({ name: "Renamed", status: "warning" });
  });
});
