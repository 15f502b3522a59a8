import { act, Profiler, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { ToastContainer } from "react-toastify";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LiveReading, Mcu, ProfileConfig } from "../../../contract/entities.ts";
import type { CommandAck } from "../../../contract/realtime.ts";
import type { McuLive } from "../../../streams/device-snapshots.ts";
import type { CoreHandle } from "../../data/core-client.ts";
import { AppDataProvider, type AppData } from "../../data/provider.tsx";
import { formatReadingTime } from "../../components/dates.ts";
import type { Session } from "../../data/session.ts";
import { createAppStore, type AppStore } from "../../data/store.ts";
import { startTexts } from "../../../test-support/i18n.ts";
import { feedStore, wholeList, type StoreFeed } from "../../../test-support/store-feed.ts";
import { McuCard } from "./mcu-card.tsx";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const at = "2026-01-01T00:00:00.000Z";
const sensor = (id: number, type: Mcu["sensors"][number]["type"]) => ({ sensor_id: id, name: type, mac: `02:00:00:00:00:${id}`, type, mcu_id: 1, mcu_name: "Room", createdAt: at, updatedAt: at });

function mcuFixture(mcu_id: number, mac: string, name: string): Mcu {
  return {
    mcu_id,
    name,
    mac,
    farm_id: 1,
    farm: { name: "Cedar Cellar" },
    client_id: 1,
    status: "active",
    readings: null,
    lastSeen: null,
    controllers: [],
    sensors: [sensor(1, "Humidity"), sensor(2, "Humidity"), sensor(3, "CO2"), sensor(4, "Soil_temp"), sensor(5, "Moisture")],
    profile_links: [],
    createdAt: at,
    updatedAt: at,
  };
}

const READING: LiveReading = {
  DHT: { temperature: 20.4, humidity: 88, count: 1 },
  SOIL_TEMP: { soil_temperature: 19.5, count: 1 },
  CO2: { co2: 850, count: 1 },
  Irrigation: { status: false, auto: true, session: false },
  AC: { status: true, auto: true },
  Ventilation: { status: false, auto: false },
  Humidifier: { status: true, auto: false },
  lastUpdated: "2026-01-01T08:30:00.000Z",
};

/** The demo's "Oyster fruiting": CO2 up to 800 ppm, room 18 ± 2 °C, humidity from 85 %, soil moisture from 40 %. */
const PROFILE: ProfileConfig = {
  irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
  ventilation: { co2_threshold: 800 },
  ac: { based_on: "room_temp", target_temp: 18 },
  humidifier: { humidity_on_below: 85, humidity_off_above: 93 },
};

const withProfile = (mcu: Mcu, config: ProfileConfig): Mcu => ({
  ...mcu,
  profile_links: [{ id: 1, mcu_id: mcu.mcu_id, profile_id: 1, profile: { profile_id: 1, name: "Oyster fruiting", config } }],
});

const live = (mac: string, mcuId: number, over: Partial<McuLive>): McuLive => ({
  mac,
  mcuId,
  readings: READING,
  status: "online",
  lastReadingAt: 0,
  online: true,
  pending: null,
  ...over,
});

describe("McuCard in a real browser", () => {
  let host: HTMLDivElement;
  let root: Root;
  let store: AppStore;
  let sent: unknown[][];
  let answer: CommandAck;
  /** The core's part: the cards' views from the records and snapshots. */
  let feed: StoreFeed;

  beforeEach(() => {
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
    store = createAppStore();
    feed = feedStore(store);
    sent = [];
    answer = { ok: true };
    store.apply(wholeList("mcus", [mcuFixture(1, "AA:00:00:00:00:01", "Room A"), mcuFixture(2, "AA:00:00:00:00:02", "Room B")]));
  });
  afterEach(async () => {
    await act(async () => root.unmount());
    host.remove();
  });

  const core = {
    sendCommand: async (...args: unknown[]) => {
      sent.push(args);
      return answer;
    },
  } as unknown as CoreHandle;

  const setLive = (...snapshots: McuLive[]) => act(async () => void feed.live(...snapshots));

  async function render(children: ReactNode) {
    const data: AppData = { core, store, session: {} as Session };
    // The cards' views of what the store holds now, as the core sends them once the cards mount.
    feed.live();
    await act(async () =>
      root.render(
        <AppDataProvider value={data}>
          <ul>{children}</ul>
          <ToastContainer />
        </AppDataProvider>,
      ),
    );
  }

  const card = (name: string) => [...host.querySelectorAll("article")].find((a) => a.querySelector("h3")?.textContent === name)!;
  const toggle = (c: Element, name: string) =>
    [...c.querySelectorAll<HTMLButtonElement>('[role="switch"]')].find((s) => s.id && c.querySelector(`label[for="${s.id}"]`)?.textContent === name)!;

  it("says its readings, devices and switches again in the language and digits the person chooses", async () => {
    await setLive(live("AA:00:00:00:00:01", 1, {}));
    await render(<McuCard mcuId={1} />);
    try {
      await act(() => startTexts({ language: "ar", digits: "arab" }));
      const c = card("Room A");
      const text = c.querySelector("dl")!.textContent!;
      expect(text).toContain("درجة الحرارة٢٠٫٤ °C١/٢ حساس");
      expect(text).toContain("CO2٨٥٠ ppm");
      // The memoized device tiles and switches follow too.
      expect(toggle(c, "التكييف الحالة").getAttribute("aria-checked")).toBe("true");
      expect(c.textContent).toContain("التهوية");
    } finally {
      await act(() => startTexts());
    }
    expect(toggle(card("Room A"), "AC Status").getAttribute("aria-checked")).toBe("true");
  });

  it("shows an online MCU's readings labelled reporting / total sensors, and its device states", async () => {
    await setLive(live("AA:00:00:00:00:01", 1, {}));
    await render(<McuCard mcuId={1} />);
    const c = card("Room A");
    expect(c.textContent).toContain("Online");
    expect(c.textContent).toContain("No profile linked");
    const text = c.querySelector("dl")!.textContent!;
    expect(text).toContain("Temperature20.4 °C1/2 sensors");
    expect(text).toContain("Humidity88.0 %1/2 sensors");
    expect(text).toContain("Soil Temperature19.5 °C1/1 sensors");
    expect(text).toContain("CO2850 ppm1/1 sensors");
    expect(toggle(c, "AC Status").getAttribute("aria-checked")).toBe("true");
    expect(toggle(c, "Ventilation Automation").getAttribute("aria-checked")).toBe("false");
    expect(toggle(c, "Humidifier Status").disabled).toBe(false);
    // Not today's reading, so the date is shown with the time.
    expect(c.textContent).toContain(`Last updated: ${formatReadingTime(READING.lastUpdated!)}`);
    expect(c.querySelector("[data-out-of-profile]")).toBeNull();
  });

  it("disables the toggles of an offline MCU and says they show its last known state", async () => {
    await setLive(live("AA:00:00:00:00:01", 1, { online: false, status: "offline" }));
    await render(<McuCard mcuId={1} />);
    const c = card("Room A");
    expect(c.textContent).toContain("Offline");
    expect(c.querySelector("dl")).toBeNull();
    const status = toggle(c, "AC Status");
    expect(status.disabled).toBe(true);
    expect(status.getAttribute("aria-checked")).toBe("true");
    expect(document.getElementById(status.getAttribute("aria-describedby")!)!.textContent).toBe("MCU offline: last known state");
    expect(c.textContent).toContain("MCU offline: showing the last known device state. Switching resumes when it reports again.");
    status.click();
    expect(sent).toEqual([]);
  });

  it("says it waits for live data, not that the MCU never reported, before the first live connection has told anything", async () => {
    await render(<McuCard mcuId={2} />);
    const c = card("Room B");
    expect(c.textContent).toContain("Waiting for live data…");
    expect(c.textContent).not.toContain("MCU offline: no device state reported yet.");
    await act(async () => void store.apply({ kind: "connection", state: "connected" }));
    expect(c.textContent).toContain("MCU offline: no device state reported yet.");
    expect(c.textContent).not.toContain("Waiting for live data…");
  });

  it("says No data and no state for an MCU that never reported", async () => {
    await act(async () => void store.apply({ kind: "connection", state: "connected" }));
    await render(<McuCard mcuId={2} />);
    const c = card("Room B");
    expect(c.textContent).toContain("Offline");
    expect(c.textContent).toContain("Last updated: No data");
    expect(c.textContent).toContain("MCU offline: no device state reported yet.");
    const automation = toggle(c, "Irrigation Automation");
    expect(automation.getAttribute("aria-checked")).toBe("false");
    expect(document.getElementById(automation.getAttribute("aria-describedby")!)!.textContent).toBe("MCU offline: no state reported");
    expect(toggle(c, "Irrigation Automation").disabled).toBe(true);
  });

  it("disables the tile of a device an online MCU does not report", async () => {
    const { Humidifier: _, ...withoutHumidifier } = READING;
    await setLive(live("AA:00:00:00:00:01", 1, { readings: withoutHumidifier }));
    await render(<McuCard mcuId={1} />);
    const c = card("Room A");
    expect(toggle(c, "Humidifier Status").disabled).toBe(true);
    expect(toggle(c, "Humidifier Automation").disabled).toBe(true);
    expect(toggle(c, "Ventilation Status").disabled).toBe(false);
    const tile = [...c.querySelectorAll('[role="group"]')].find((g) => g.textContent!.startsWith("Humidifier"))!;
    expect(tile.textContent).toContain("Not reported by this MCU");
  });

  it("sends a toggle, shows the pending value until the ack, and toasts a refusal", async () => {
    const mac = "AA:00:00:00:00:01";
    await setLive(live(mac, 1, {}));
    await render(<McuCard mcuId={1} />);
    answer = { ok: false, message: "The Humidifier did not answer" };
    await act(async () => toggle(card("Room A"), "Humidifier Status").click());
    expect(sent).toEqual([[mac, "Humidifier", "status", false]]);
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(host.querySelector('[role="alert"]')?.textContent).toContain("The Humidifier did not answer");

    // While the core holds the toggle as pending, it shows the requested value and ignores clicks.
    await setLive(live(mac, 1, { pending: { "Humidifier:status": false } }));
    const status = toggle(card("Room A"), "Humidifier Status");
    expect(status.getAttribute("aria-checked")).toBe("false");
    expect(status.getAttribute("aria-busy")).toBe("true");
    await act(async () => status.click());
    expect(sent).toHaveLength(1);
    // The pending value is dropped without a confirmation: the device's state shows again.
    await setLive(live(mac, 1, { pending: null }));
    expect(toggle(card("Room A"), "Humidifier Status").getAttribute("aria-checked")).toBe("true");
  });

  it("disables Status while Automation is on, with the reason shown and announced", async () => {
    const mac = "AA:00:00:00:00:01";
    await setLive(live(mac, 1, {}));
    await render(<McuCard mcuId={1} />);
    const c = card("Room A");
    // AC and Irrigation run on Automation; Ventilation and Humidifier are switched by hand.
    for (const target of ["AC", "Irrigation"]) {
      const status = toggle(c, `${target} Status`);
      expect(status.disabled, target).toBe(true);
      const reason = document.getElementById(status.getAttribute("aria-describedby")!)!;
      expect(reason.textContent).toBe("Automation is on");
      expect(toggle(c, `${target} Automation`).disabled).toBe(false);
      await act(async () => status.click());
    }
    expect(sent).toEqual([]);
    expect(toggle(c, "Ventilation Status").disabled).toBe(false);
    expect(toggle(c, "Ventilation Status").hasAttribute("aria-describedby")).toBe(false);

    // Turning Automation off frees Status at once, while the device is still to confirm it.
    await setLive(live(mac, 1, { pending: { "AC:auto": false } }));
    expect(toggle(card("Room A"), "AC Status").disabled).toBe(false);
    expect(toggle(card("Room A"), "AC Status").hasAttribute("aria-describedby")).toBe(false);
  });

  it("marks a value outside the linked profile with the limit in words, and only that value", async () => {
    await act(async () => feed.entities({ mcus: [withProfile(mcuFixture(1, "AA:00:00:00:00:01", "Room A"), PROFILE)] }));
    const reading = { ...READING, CO2: { co2: 1250, count: 1 }, DHT: { temperature: 18.6, humidity: 88, count: 1 } };
    await setLive(live("AA:00:00:00:00:01", 1, { readings: reading }));
    await render(<McuCard mcuId={1} />);
    const c = card("Room A");
    const marked = [...c.querySelectorAll("[data-out-of-profile]")];
    expect(marked.map((m) => m.textContent)).toEqual(["CO21,250 ppmOutside the profile: Above 800 ppm1/1 sensors"]);
    expect(marked[0]!.querySelector(".sr-only")!.textContent).toBe("Outside the profile: ");

    // Room temperature 21.3 °C is off the 18 °C target by more than 2 °C.
    await setLive(live("AA:00:00:00:00:01", 1, { readings: { ...reading, DHT: { temperature: 21.3, humidity: 88, count: 1 } } }));
    expect([...card("Room A").querySelectorAll("[data-out-of-profile] dt")].map((d) => d.textContent)).toEqual(["Temperature", "CO2"]);
    expect(card("Room A").textContent).toContain("Target 18 °C");
  });

  it("shows a low battery and an out-of-profile soil moisture, which the grid has no place for", async () => {
    await act(async () => feed.entities({ mcus: [withProfile(mcuFixture(1, "AA:00:00:00:00:01", "Room A"), PROFILE)] }));
    await setLive(live("AA:00:00:00:00:01", 1, { readings: { ...READING, DHT: { temperature: 18, humidity: 88, count: 1 }, CO2: { co2: 700, count: 1 }, batteryLevel: 24.2, MOISTURE: { soil_moisture: 31, count: 1 } } }));
    await render(<McuCard mcuId={1} />);
    const notes = [...card("Room A").querySelectorAll("li")].map((l) => l.textContent);
    expect(notes).toEqual(["Battery low: 24%", "Soil moisture is 31%, below 40%."]);
  });

  it("counts sensors that report without being registered, never showing fewer sensors than report, and says once how many are not registered", async () => {
    const registered = { ...mcuFixture(1, "AA:00:00:00:00:01", "Room A"), sensors: [sensor(1, "Humidity")] };
    await act(async () => feed.entities({ mcus: [registered] }));
    await setLive(live("AA:00:00:00:00:01", 1, { readings: { ...READING, CO2: { co2: 850, count: 2 } } }));
    await render(<McuCard mcuId={1} />);
    const c = card("Room A");
    const text = c.querySelector("dl")!.textContent!;
    expect(text).toContain("Temperature20.4 °C1/1 sensors");
    expect(text).toContain("Soil Temperature19.5 °C1/1 sensors");
    expect(text).toContain("CO2850 ppm2/2 sensors");
    expect(text).not.toMatch(/\d\/0 sensors/);
    // Each value's count is consistent with the note: no "not registered" under one value and not under another.
    expect(text).not.toContain("not registered");
    // 1 Soil_temp and 2 CO2 sensors report beyond what is registered (the Humidity sensor is).
    expect(c.textContent).toContain("3 reporting sensors are not registered yet: scan them in Sensors Manager.");
  });

  it("says what automation follows while no profile is linked, and nothing of it once one is", async () => {
    const note = "Automation follows the MCU's built-in settings until a profile is linked.";
    await setLive(live("AA:00:00:00:00:01", 1, {}));
    await render(<McuCard mcuId={1} />);
    expect(card("Room A").textContent).toContain(`No profile linked${note}`);
    await act(async () => feed.entities({ mcus: [withProfile(mcuFixture(1, "AA:00:00:00:00:01", "Room A"), PROFILE)] }));
    await expect.poll(() => card("Room A").textContent).toContain("Oyster fruiting");
    expect(card("Room A").textContent).not.toContain(note);
  });

  it("re-renders only the card whose MCU got a reading", async () => {
    const renders = { a: 0, b: 0 };
    await setLive(live("AA:00:00:00:00:01", 1, {}), live("AA:00:00:00:00:02", 2, {}));
    await render(
      <>
        <Profiler id="a" onRender={() => renders.a++}>
          <McuCard mcuId={1} />
        </Profiler>
        <Profiler id="b" onRender={() => renders.b++}>
          <McuCard mcuId={2} />
        </Profiler>
      </>,
    );
    const before = { ...renders };
    await setLive(live("AA:00:00:00:00:02", 2, { readings: { ...READING, CO2: { co2: 990, count: 1 } } }));
    expect(renders.a).toBe(before.a);
    expect(renders.b).toBe(before.b + 1);
    expect(card("Room B").textContent).toContain("990 ppm");
  });
});
