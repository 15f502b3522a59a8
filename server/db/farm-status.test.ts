import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PATHS } from "../../src/contract/api.ts";
import type { Farm, LiveReading } from "../../src/contract/entities.ts";
import { createTestServer, sampleConfig, type TestClient, type TestServer } from "../test-support.ts";

/**
 * SPEC §3 farm status in the API, derived from the farm's MCUs when it is read: offline when none
 * is online (said online and reported within 120 s), warning while an online one has a reading
 * outside its linked profile or a low battery, otherwise active.
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

  async function farmWith(mcus: { status: string; secondsAgo?: number; reading?: LiveReading; linked?: boolean }[]): Promise<number> {
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
    }
    return farmId;
  }

  async function statusOf(farmId: number): Promise<string> {
    const farms = (await c.get(API_PATHS.farmsOfClient(c.clientId))).json() as Farm[];
    return farms.find((f) => f.farm_id === farmId)!.status;
  }

  it.each([
    ["no MCUs", [], "active"],
    ["an MCU never heard", [{ status: "active" }], "offline"],
    ["an online MCU reporting within its profile", [{ status: "online", secondsAgo: 5, reading: fine, linked: true }], "active"],
    ["an online MCU with CO2 above its profile", [{ status: "online", secondsAgo: 5, reading: { ...fine, CO2: { co2: 1500, count: 1 } }, linked: true }], "warning"],
    ["an online MCU with a low battery and no profile", [{ status: "online", secondsAgo: 5, reading: { ...fine, batteryLevel: 24 } }], "warning"],
    ["an MCU that said online but has not reported for 121 s", [{ status: "online", secondsAgo: 121, reading: fine }], "offline"],
    ["an MCU that reported but said offline", [{ status: "offline", secondsAgo: 5, reading: fine }], "offline"],
    [
      "an offline MCU outside its profile and an online one within it",
      [
        { status: "offline", secondsAgo: 300, reading: { ...fine, batteryLevel: 5 } },
        { status: "online", secondsAgo: 5, reading: fine, linked: true },
      ],
      "active",
    ],
  ] as const)("is derived from its MCUs: %s -> %s", async (_name, mcus, expected) => {
    expect(await statusOf(await farmWith([...mcus]))).toBe(expected);
  });

  it("is derived in the answer of an update too", async () => {
    const farmId = await farmWith([{ status: "online", secondsAgo: 5, reading: { ...fine, batteryLevel: 10 } }]);
    const res = await c.put(API_PATHS.farm(farmId), { name: "Renamed", location: "Byblos" });
    expect(res.json()).toMatchObject({ name: "Renamed", status: "warning" });
  });
});
