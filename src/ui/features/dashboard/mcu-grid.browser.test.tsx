import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import type { LiveReading, Mcu } from "../../../contract/entities.ts";
import type { McuLive } from "../../../streams/device-snapshots.ts";
import type { CoreHandle } from "../../data/core-client.ts";
import { AppDataProvider, type AppData } from "../../data/provider.tsx";
import type { Session } from "../../data/session.ts";
import { createAppStore, type AppStore } from "../../data/store.ts";
import { feedStore } from "../../../test-support/store-feed.ts";
import { McuReadingsGrid } from "./dashboard-page.tsx";
import { mcuRecord } from "../../../test-support/records.ts";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const FLEET = 2000;
const at = "2026-01-01T00:00:00.000Z";
const mac = (id: number) => `AA:00:00:00:${String(Math.floor(id / 256)).padStart(2, "0")}:${String(id % 256).padStart(2, "0")}`;

const mcu = (mcu_id: number): Mcu => mcuRecord(mcu_id - 1, { mac: mac(mcu_id), farm_id: 1, farm: { name: "Cedar Cellar" }, client_id: 1, createdAt: at, updatedAt: at });

const READING: LiveReading = {
  DHT: { temperature: 20.4, humidity: 88, count: 1 },
  CO2: { co2: 850, count: 1 },
  Irrigation: { status: false, auto: true, session: false },
  AC: { status: true, auto: true },
  Ventilation: { status: false, auto: false },
  Humidifier: { status: true, auto: false },
  lastUpdated: at,
};

const online = (mcuId: number): McuLive => ({ mac: mac(mcuId), mcuId, readings: READING, status: "online", lastReadingAt: 0, online: true, pending: null });

describe("The MCU Readings grid with a large fleet, in a real browser", () => {
  let host: HTMLDivElement;
  let root: Root;
  let store: AppStore;
  const ids = Array.from({ length: FLEET }, (_, i) => i + 1);

  beforeEach(async () => {
    window.scrollTo(0, 0);
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
    store = createAppStore();
    const feed = feedStore(store);
    feed.entities({ mcus: ids.map(mcu) });
    feed.live(...ids.map(online));
    const data: AppData = { core: {} as CoreHandle, store, session: {} as Session };
    await act(async () =>
      root.render(
        <AppDataProvider value={data}>
          <h2 id="readings">MCU Readings</h2>
          <McuReadingsGrid ids={ids} labelledBy="readings" />
        </AppDataProvider>,
      ),
    );
    // The grid reads its width and offset after mounting, then lays out its rows.
    await expect.poll(() => mounted().length).toBeGreaterThan(0);
  });
  afterEach(async () => {
    await act(async () => root.unmount());
    host.remove();
    window.scrollTo(0, 0);
  });

  const items = () => [...host.querySelectorAll<HTMLElement>('[role="listitem"]')];
  const mounted = () => [...host.querySelectorAll("article")];
  const positions = () => items().map((li) => Number(li.getAttribute("aria-posinset")));
  const inViewport = (el: Element) => {
    const box = el.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight;
  };

  it("mounts only the cards near the screen, and tells the list's size and each card's position", async () => {
    const list = host.querySelector('[role="list"]')!;
    expect(list.getAttribute("aria-labelledby")).toBe("readings");
    expect(mounted().length).toBeLessThan(60);
    expect(items().every((li) => li.getAttribute("aria-setsize") === String(FLEET))).toBe(true);
    expect(positions().slice(0, 3)).toEqual([1, 2, 3].slice(0, Math.min(3, positions().length)));
    expect(items()[0]!.querySelector("article h3")!.textContent).toBe("Room 1");
    // The list is as tall as the whole fleet would be, so the page scrolls as one page.
    expect(list.getBoundingClientRect().height).toBeGreaterThan(window.innerHeight * 20);
  });

  it("mounts later cards as the window scrolls, in the same place of the list", async () => {
    const list = host.querySelector('[role="list"]')!;
    await act(async () => window.scrollTo(0, list.getBoundingClientRect().top + window.scrollY + list.getBoundingClientRect().height / 2));
    await expect.poll(() => Math.min(...positions())).toBeGreaterThan(500);
    expect(mounted().length).toBeLessThan(60);
    expect(items().some(inViewport)).toBe(true);
    // Each mounted card is the MCU of its position.
    for (const li of items()) expect(li.querySelector("h3")!.textContent).toBe(`Room ${li.getAttribute("aria-posinset")}`);
  });

  it("brings the next card into view and focuses it when Tab moves past the last mounted card", async () => {
    const last = items().at(-1)!;
    const lastPosition = Number(last.getAttribute("aria-posinset"));
    expect(lastPosition).toBeLessThan(FLEET);
    // The card's last stop is its History link, after the switches.
    const history = last.querySelector<HTMLAnchorElement>("a[href]")!;
    expect(history.getAttribute("aria-label")).toBe(`History of Room ${lastPosition}`);
    await act(async () => history.focus());
    await userEvent.tab();
    await expect.poll(() => document.activeElement?.closest('[role="listitem"]')?.getAttribute("aria-posinset")).toBe(String(lastPosition + 1));
    const focused = document.activeElement!;
    expect(focused.getAttribute("role")).toBe("switch");
    expect(focused.closest("article")!.querySelector("h3")!.textContent).toBe(`Room ${lastPosition + 1}`);
    await expect.poll(() => inViewport(focused)).toBe(true);

  });

  it("brings the card before into view and focuses it when Shift+Tab moves back past the first mounted card", async () => {
    const list = host.querySelector('[role="list"]')!;
    await act(async () => window.scrollTo(0, list.getBoundingClientRect().top + window.scrollY + list.getBoundingClientRect().height / 2));
    await expect.poll(() => Math.min(...positions())).toBeGreaterThan(500);
    const first = items()[0]!;
    const firstPosition = Number(first.getAttribute("aria-posinset"));
    await act(async () => first.querySelector<HTMLButtonElement>('[role="switch"]:not([disabled])')!.focus());
    await userEvent.tab({ shift: true });
    await expect.poll(() => document.activeElement?.closest('[role="listitem"]')?.getAttribute("aria-posinset")).toBe(String(firstPosition - 1));
    const focused = document.activeElement!;
    // Entered from after it, the card gets the focus on its last stop: its History link.
    expect(focused.getAttribute("aria-label")).toBe(`History of Room ${firstPosition - 1}`);
    expect([...focused.closest("article")!.querySelectorAll('[role="switch"]:not([disabled]), a[href]')].at(-1)).toBe(focused);
    // The card is brought in at its top: in this test's browser a card is taller than the screen,
    // so its last stop may lie below it once the grid has placed the row.
    await expect.poll(() => inViewport(focused.closest("article")!)).toBe(true);
  });
});
