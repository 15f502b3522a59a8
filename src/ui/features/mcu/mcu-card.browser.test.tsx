import { act, Profiler } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LiveReading } from "../../../contract/entities.ts";
import type { McuLive, McuManagerCardView } from "../../../contract/live.ts";
import { createManagerCardViews } from "../../../streams/mcu-manager-view.ts";
import { startTexts } from "../../../test-support/i18n.ts";
import { macOf, mcuRecord } from "../../../test-support/records.ts";
import { wholeList } from "../../../test-support/store-feed.ts";
import { ConfirmProvider } from "../../components/confirm-dialog.tsx";
import type { CoreHandle } from "../../data/core-client.ts";
import { AppDataProvider } from "../../data/provider.tsx";
import type { Session } from "../../data/session.ts";
import { createAppStore, type AppStore } from "../../data/store.ts";
import { McuCard } from "./mcu-card.tsx";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const NOW = Date.parse("2026-11-24T12:00:00.000Z");
const MAC = macOf(0);

const reading = (over: Partial<LiveReading>): LiveReading => ({ DHT: { temperature: 20.4, humidity: 88, count: 1 }, CO2: { co2: 850, count: 1 }, batteryLevel: 64.2, ...over });
const live = (over: Partial<McuLive>): McuLive => ({ mac: MAC, mcuId: 1, readings: reading({}), status: "online", lastReadingAt: NOW - 5_000, online: true, pending: null, ...over });

describe("the MCU Manager's card in a real browser", () => {
  let host: HTMLDivElement;
  let root: Root;
  let store: AppStore;
  let seq = 0;
  let renders = 0;
  const record = mcuRecord(0, { name: "Tunnel 1" });
  /** The core's side: each snapshot makes the card's view there, and a view goes only when it changed. */
  let views: ReturnType<typeof createManagerCardViews>;
  let sent: McuManagerCardView | undefined;

  beforeEach(async () => {
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
    store = createAppStore();
    store.apply(wholeList("mcus", [record]));
    store.apply({ kind: "entities", entities: { profiles: [] } });
    views = createManagerCardViews();
    sent = undefined;
    // As the core first sends it: the record's view, nothing live yet.
    await setLive(undefined);
    renders = 0;
    const data = { core: {} as CoreHandle, store, session: {} as Session };
    await act(async () =>
      root.render(
        <AppDataProvider value={data}>
          <ConfirmProvider>
            <Profiler id="card" onRender={() => renders++}>
              <McuCard mcuId={1} onEdit={() => {}} onDelete={() => {}} />
            </Profiler>
          </ConfirmProvider>
        </AppDataProvider>,
      ),
    );
  });
  afterEach(async () => {
    await act(async () => root.unmount());
    host.remove();
  });

  const setLive = (snapshot: McuLive | undefined) => {
    const view = views.view(record, snapshot, NOW);
    if (view === sent) return Promise.resolve();
    sent = view;
    return act(async () => void store.apply({ kind: "live", batch: { seq: ++seq, upserts: [], removed: [], clock: NOW, managerCards: [view] } }));
  };
  const text = () => host.querySelector("article")!.textContent!;
  const meter = () => host.querySelector('[role="meter"]')!;

  it("shows the live status, battery and last sign of life", async () => {
    expect(text()).toContain("Never");
    await setLive(live({}));
    expect(text()).toContain("Online");
    expect(text()).toContain("Just now");
    expect(meter().getAttribute("aria-valuetext")).toBe("64%");
  });

  it("renders again for a reading only when what it shows changed", async () => {
    await setLive(live({}));
    const after = renders;
    // Five seconds of readings: other values, the same whole battery percent, still "Just now".
    for (let i = 1; i <= 25; i++) await setLive(live({ lastReadingAt: NOW - 5_000 + i * 200, readings: reading({ CO2: { co2: 850 + i, count: 1 }, batteryLevel: 64.2 + i / 100 }) }));
    expect(renders).toBe(after);
    expect(meter().getAttribute("aria-valuetext")).toBe("64%");

    // A whole percent less, then a colour change at 50 % (64 -> 63, then 50.4 green -> 49.6 yellow, both "50%").
    await setLive(live({ readings: reading({ batteryLevel: 63.4 }) }));
    expect(meter().getAttribute("aria-valuetext")).toBe("63%");
    await setLive(live({ readings: reading({ batteryLevel: 50.4 }) }));
    expect(meter().getAttribute("data-color")).toBe("green");
    await setLive(live({ readings: reading({ batteryLevel: 49.6 }) }));
    expect(meter().getAttribute("aria-valuetext")).toBe("50%");
    expect(meter().getAttribute("data-color")).toBe("yellow");

    // Going offline, and a last sign of life that is minutes old, show at once.
    const before = renders;
    await setLive(live({ online: false, status: "offline", lastReadingAt: NOW - 5 * 60_000 }));
    expect(renders).toBe(before + 1);
    expect(text()).toContain("Offline");
    expect(text()).toContain("5m ago");
  });

  it("says the same again in the language and digits the person chooses, with no new view from the core", async () => {
    await setLive(live({ online: false, status: "offline", lastReadingAt: NOW - 5 * 60_000 }));
    try {
      await act(() => startTexts({ language: "ar", digits: "arab" }));
      expect(text()).toContain("غير متصلة");
      expect(text()).toContain("منذ ٥ دقائق");
      expect(meter().getAttribute("aria-valuetext")).toMatch(/^٦٤/);
      await act(() => startTexts({ language: "fr", digits: "latn" }));
      expect(text()).toContain("il y a 5 min");
    } finally {
      await act(() => startTexts());
    }
    expect(text()).toContain("5m ago");
  });
});
