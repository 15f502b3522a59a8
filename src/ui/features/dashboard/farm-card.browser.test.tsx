import { act, Profiler } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Alarm } from "../../../contract/alarms-values.ts";
import { alarmRecord } from "../../../test-support/alarms.ts";
import type { Farm, LiveReading, Mcu, ProfileConfig } from "../../../contract/entities.ts";
import type { McuLive } from "../../../streams/device-snapshots.ts";
import type { CoreHandle } from "../../data/core-client.ts";
import { AppDataProvider, type AppData } from "../../data/provider.tsx";
import type { Session } from "../../data/session.ts";
import { createAppStore, type AppStore } from "../../data/store.ts";
import { feedStore, type StoreFeed } from "../../../test-support/store-feed.ts";
import { FarmCard } from "./farm-card.tsx";
import { SummaryCards } from "./summary-cards.tsx";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const at = "2026-01-01T00:00:00.000Z";
const CONFIG: ProfileConfig = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 800 },
  ac: { based_on: "room_temp", target_temp: 18 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 93 },
};

const mcu = (mcu_id: number, farm_id: number): Mcu => ({
  mcu_id,
  name: `Room ${mcu_id}`,
  mac: `AA:00:00:00:00:0${mcu_id}`,
  farm_id,
  farm: { name: `Farm ${farm_id}` },
  client_id: 1,
  status: "active",
  readings: null,
  lastSeen: null,
  controllers: [],
  sensors: [],
  profile_links: [{ id: mcu_id, mcu_id, profile_id: 1, profile: { profile_id: 1, name: "Oyster fruiting", config: CONFIG } }],
  createdAt: at,
  updatedAt: at,
});

const farm = (farm_id: number, name: string, mcuIds: number[]): Farm => ({
  farm_id,
  name,
  location: "Byblos",
  status: "active",
  mcuCount: mcuIds.length,
  client_id: 1,
  mcus: mcuIds.map((id) => ({ id, mcu_id: id, name: `Room ${id}` })),
  createdAt: at,
  updatedAt: at,
});

const reading = (co2: number): LiveReading => ({ DHT: { temperature: 18.2, humidity: 88, count: 1 }, CO2: { co2, count: 1 }, batteryLevel: 80 });
/** MCU `mcuId`'s CO2 alarm (a farm is a warning while one of its MCUs has an active alarm). */
const co2Alarm = (mcuId: number, state: Alarm["state"] = "open"): Alarm => alarmRecord(mcuId, mcuId, { state, mac: `AA:00:00:00:00:0${mcuId}` });
const live = (id: number, co2: number): McuLive => ({ mac: `AA:00:00:00:00:0${id}`, mcuId: id, readings: reading(co2), status: "online", lastReadingAt: 0, online: true, pending: null });

describe("FarmCard and the Warnings card in a real browser", () => {
  let host: HTMLDivElement;
  let root: Root;
  let store: AppStore;
  let feed: StoreFeed;

  beforeEach(() => {
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
    store = createAppStore();
    feed = feedStore(store);
    feed.entities({ farms: [farm(1, "Cedar Cellar", [1, 2]), farm(2, "North Barn", [3])], mcus: [mcu(1, 1), mcu(2, 1), mcu(3, 2)] });
  });
  afterEach(async () => {
    await act(async () => root.unmount());
    host.remove();
  });

  const setLive = (...snapshots: McuLive[]) => act(async () => void feed.live(...snapshots));
  const badge = (name: string) => [...host.querySelectorAll("li")].find((l) => l.querySelector("h3")?.textContent === name)!.querySelector("h3 + span")!.textContent;
  const warnings = () => [...host.querySelectorAll("li")].find((l) => l.textContent!.startsWith("Warnings"))!.querySelectorAll("p")[1]!.textContent;

  const setAlarms = (...alarms: Alarm[]) => act(async () => void feed.alarms(...alarms));

  it("turns the badge and the Warnings count with the open alarms, re-rendering a card only when its status changes", async () => {
    const renders = { cedar: 0, north: 0 };
    const data: AppData = { core: {} as CoreHandle, store, session: {} as Session };
    await setLive(live(1, 700), live(2, 700), live(3, 700));
    await act(async () =>
      root.render(
        <AppDataProvider value={data}>
          <SummaryCards farmsReady mcusReady />
          <ul>
            <Profiler id="cedar" onRender={() => renders.cedar++}>
              <FarmCard farm={store.get("farms")[0]!} />
            </Profiler>
            <Profiler id="north" onRender={() => renders.north++}>
              <FarmCard farm={store.get("farms")[1]!} />
            </Profiler>
          </ul>
        </AppDataProvider>,
      ),
    );
    expect([badge("Cedar Cellar"), badge("North Barn"), warnings()]).toEqual(["Active", "Active", "0"]);
    const before = { ...renders };

    // New readings inside the profile: nobody's status changes, no farm card renders.
    await setLive(live(1, 720), live(3, 650));
    expect(renders).toEqual(before);

    // CO2 above the profile's 800 ppm in one room of Cedar Cellar: no warning within the grace period…
    await setLive(live(2, 1250));
    expect([badge("Cedar Cellar"), badge("North Barn"), warnings()]).toEqual(["Active", "Active", "0"]);
    expect(renders).toEqual(before);
    // …and one once its alarm opens.
    await setAlarms(co2Alarm(2));
    expect([badge("Cedar Cellar"), badge("North Barn"), warnings()]).toEqual(["Warning", "Active", "1"]);
    expect(renders).toEqual({ cedar: before.cedar + 1, north: before.north });
    // Acknowledged, it is still a warning until it is resolved.
    await setAlarms(co2Alarm(2, "acknowledged"));
    expect([badge("Cedar Cellar"), warnings()]).toEqual(["Warning", "1"]);

    // North Barn's only MCU stops reporting: offline, not a warning.
    await setLive({ ...live(3, 650), online: false });
    expect([badge("Cedar Cellar"), badge("North Barn"), warnings()]).toEqual(["Warning", "Offline", "1"]);

    await setLive(live(2, 700));
    await setAlarms();
    expect([badge("Cedar Cellar"), warnings()]).toEqual(["Active", "0"]);
  });
});
