import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { MemoryRouter } from "react-router-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commands } from "vitest/browser";
import { mcuQueryKey } from "../../../contract/live.ts";
import { createAppData } from "../../data/app-data.ts";
import { AppDataProvider, type AppData } from "../../data/provider.tsx";
import { keys } from "../../data/store.ts";
import DashboardPage from "./dashboard-page.tsx";
import { until } from "../../../test-support/until.ts";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const FLEET = 2000;

/**
 * The dashboard of a 2000-MCU fleet with the real data core (worker), server and socket: only the
 * MCUs whose cards are mounted cross to the main thread, while the counts and the MCU Manager's
 * filters cover the whole fleet.
 */
describe("a 2000-MCU fleet on the dashboard, in a real browser", () => {
  let app: ReturnType<typeof createAppData>;
  let macs: string[];
  let host: HTMLDivElement;
  let root: Root;
  /** On screen at the top: the first two MCUs. Off screen: ten near the end of the list. */
  let shown: string[];
  let offScreen: string[];

  const summary = (label: string) => {
    const card = [...host.querySelectorAll("li")].find((li) => li.querySelector("p")?.textContent === label);
    return card?.querySelectorAll("p")[1]?.textContent ?? null;
  };
  /** The id of the MCU with this MAC, and its card view as the main thread holds it. */
  const idOf = (mac: string) => app.store.get("mcus").find((m) => m.mac === mac)!.mcu_id;
  const viewOf = (mac: string) => app.store.getCard(idOf(mac));
  const cardNamed = (name: string) => [...host.querySelectorAll("article")].find((a) => a.querySelector("h3")?.textContent === name);

  beforeAll(async () => {
    const fleet = await commands.seedLargeFleet(FLEET);
    macs = fleet.macs;
    shown = macs.slice(0, 2);
    offScreen = macs.slice(1990, 2000);
    app = createAppData({ storage: sessionStorage });
    app.session.setClient(await app.core.login(fleet.username, fleet.password));
    await app.core.loadMcus();
    for (const mac of [...shown, ...offScreen]) await commands.pushReading(mac, 85);
    window.scrollTo(0, 0);
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
    await act(async () =>
      root.render(
        <AppDataProvider value={app}>
          <MemoryRouter>
            <DashboardPage />
          </MemoryRouter>
        </AppDataProvider>,
      ),
    );
    await until(() => host.querySelectorAll("article").length > 0, "the first cards", 20_000);
  }, 120_000);

  afterAll(async () => {
    await act(async () => root?.unmount());
    host?.remove();
    app?.terminate();
    window.scrollTo(0, 0);
  });

  it("counts the whole fleet in the summary, off-screen MCUs included", async () => {
    await until(() => summary("Active MCUs") === "12", `Active MCUs 12 (shows ${summary("Active MCUs")})`, 20_000);
    expect(summary("Offline MCUs")).toBe(String(FLEET - 12));
    expect(host.querySelectorAll("article").length).toBeLessThan(60);
  });

  it("sends no live update of an MCU whose card is not mounted", async () => {
    await until(() => viewOf(shown[0]!)?.readings?.DHT?.humidity === 85, "the shown card's reading", 20_000);
    // An off-screen MCU reports, then a shown one: once the later reading has crossed, the earlier
    // one would have too, in the same or an earlier batch, had it crossed at all.
    await commands.pushReading(offScreen[5]!, 77.5);
    await commands.pushReading(shown[0]!, 66.5);
    await until(() => viewOf(shown[0]!)?.readings?.DHT?.humidity === 66.5, "the shown card's new reading", 20_000);
    // Off screen: no card view and no snapshot crossed (what the store holds is its record alone).
    for (const mac of offScreen) {
      expect(viewOf(mac)?.readings ?? null, mac).toBeNull();
      expect(app.store.getLive(mac), mac).toBeUndefined();
    }
    expect(app.store.cardInterest()).not.toContain(idOf(offScreen[5]!));
  });

  it("shows an MCU's latest reading on its card as soon as the card scrolls into view", async () => {
    const name = `Room ${String(1996).padStart(4, "0")}`; // macs[1995] = offScreen[5]
    // To the end of the list, then back up a little at a time until the card is mounted.
    const list = host.querySelector('[role="list"]')!;
    // The rows at the end take their height as their cards' views come: the end moves until they have.
    const toEnd = () => act(async () => window.scrollTo(0, list.getBoundingClientRect().bottom + window.scrollY - window.innerHeight));
    const lastMounted = () => host.querySelector(`[role="listitem"][aria-posinset="${FLEET}"] article`) !== null;
    await toEnd();
    for (let step = 0; step < 40 && !lastMounted(); step++) {
      await new Promise((r) => setTimeout(r, 50));
      await toEnd();
    }
    // Its list item mounts with the scroll; its card shows once its view has come from the core.
    const position = app.store.getIds("mcus").indexOf(idOf(offScreen[5]!)) + 1;
    const itemMounted = () => host.querySelector(`[role="listitem"][aria-posinset="${position}"]`) !== null;
    for (let step = 0; step < 40 && !itemMounted(); step++) {
      await new Promise((r) => setTimeout(r, 50));
      if (!itemMounted()) await act(async () => window.scrollBy(0, -Math.round(window.innerHeight / 3)));
    }
    await until(() => cardNamed(name) !== undefined, `the card of ${name} to mount`, 20_000);
    await until(() => /77[.,]5\s*%/.test(cardNamed(name)!.textContent ?? ""), `${name} to show 77.5 %`, 20_000);
    expect(cardNamed(name)!.textContent).toContain("Online");
    expect(app.store.cardInterest()).toContain(idOf(offScreen[5]!));
    // The cards at the top have unmounted, and their MCUs left the interest set.
    expect(cardNamed("Room 0001")).toBeUndefined();
    expect(app.store.cardInterest()).not.toContain(idOf(shown[0]!));
  });

  it("answers the MCU Manager's Online, Offline and Active filters over the whole fleet", async () => {
    const online = mcuQueryKey({ search: "", status: "online", farmId: "" });
    const offline = mcuQueryKey({ search: "", status: "offline", farmId: "" });
    const active = mcuQueryKey({ search: "", status: "active", farmId: "" });
    const offs = [online, offline, active].map((key) => app.store.subscribe(keys.mcuQuery(key), () => {}));
    const ids = (mac: string) => app.store.get("mcus").find((m) => m.mac === mac)!.mcu_id;
    await until(() => app.store.getMcuQuery(online).length === 12, "the Online filter's result", 20_000);
    expect([...app.store.getMcuQuery(online)]).toEqual([...shown, ...offScreen].map(ids));
    // Active lists every MCU at work: the online ones and those never reported (SPEC's badge: Active, not Offline).
    await until(() => app.store.getMcuQuery(active).length === FLEET, "the Active filter's result", 20_000);
    expect(app.store.getMcuQuery(offline)).toEqual([]);
    offs.forEach((off) => off());
  });
});
