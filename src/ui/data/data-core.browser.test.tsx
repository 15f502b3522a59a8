import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commands } from "vitest/browser";
import { createAppData } from "./app-data.ts";
import { useMcuLiveWith } from "./hooks.ts";
import { AppDataProvider, type AppData } from "./provider.tsx";
import { INTEREST_GRACE_MS, keys } from "./store.ts";
import { watchFirstMcus } from "./start-worker.ts";
import { mcuRecord } from "../../test-support/records.ts";
import { cardView } from "../../streams/card-view.ts";
import { managerCardView } from "../../streams/mcu-manager-view.ts";
import { until } from "../../test-support/until.ts";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe("the data core in a real browser", () => {
  let app: ReturnType<typeof createAppData>;
  let macs: string[];
  /** Watches MCUs' live snapshots as a mounted card does (which makes them of interest); returns the unwatch. */
  const watch = (...list: string[]) => {
    const offs = list.map((mac) => app.store.subscribe(keys.live(mac), () => {}));
    return () => offs.forEach((off) => off());
  };

  beforeAll(async () => {
    const fixture = await commands.seedLiveFixture(2);
    macs = fixture.macs;
    app = createAppData({ storage: sessionStorage });
    const client = await app.core.login(fixture.username, fixture.password);
    app.session.setClient(client);
    await app.core.loadMcus();
  });
  afterAll(() => app?.terminate());

  it("runs in a Web Worker, connects, authenticates and receives realtimeData", async () => {
    expect((await app.ready).inWorker).toBe(true);
    const unwatch = watch(...macs);
    await until(() => app.store.getConnection().state === "connected", "the socket to authenticate");
    await until(() => macs.every((m) => app.store.getLive(m)?.readings), "a reading from each device");
    await commands.publishReading(macs[0]!, 91.5);
    await until(() => app.store.getLive(macs[0]!)?.readings?.DHT?.humidity === 91.5, "the published reading");
    expect(app.store.getLive(macs[0]!)!.online).toBe(true);
    expect(app.store.get("mcus").map((m) => m.mac).sort()).toEqual([...macs].sort());
    unwatch();
  });

  it("re-renders a component subscribed to one MCU when that MCU changes, not when another does", async () => {
    let renders = 0;
    function Humidity({ mac }: { mac: string }) {
      renders++;
      const humidity = useMcuLiveWith(mac, (live) => live?.readings?.DHT?.humidity ?? "none", Object.is);
      return <output data-testid="humidity">{humidity}</output>;
    }
    const host = document.createElement("div");
    document.body.append(host);
    const root = createRoot(host);
    await act(async () => root.render(<AppDataProvider value={app}><Humidity mac={macs[0]!} /></AppDataProvider>));
    const start = renders;

    const unwatchOther = watch(macs[1]!);
    await commands.publishReading(macs[1]!, 70);
    await until(() => app.store.getLive(macs[1]!)?.readings?.DHT?.humidity === 70, "the other MCU's reading");
    await act(async () => new Promise((r) => setTimeout(r, 100)));
    expect(renders).toBe(start);

    await commands.publishReading(macs[0]!, 88.8);
    await until(() => host.textContent === "88.8", "the subscribed MCU to re-render");
    expect(renders).toBe(start + 1);

    unwatchOther();
    await act(async () => root.unmount());
    host.remove();
    expect(app.store.listenerCount()).toBe(0);
  });

  it("sends no live update of an MCU without a card, and its latest reading when its card mounts", async () => {
    const [shown, hidden] = [macs[0]!, macs[1]!];
    // The hidden MCU, watched by the test before, stays of interest for its grace period: let it end.
    await new Promise((r) => setTimeout(r, INTEREST_GRACE_MS + 200));
    const unwatch = watch(shown);
    await until(() => app.store.getLive(shown) !== undefined, "the watched MCU's snapshot");
    // The hidden MCU's reading goes first: once the shown one's, sent after it, has arrived, the
    // hidden one's would have come in the same or an earlier batch had it crossed.
    await commands.publishReading(hidden, 55.5);
    await commands.publishReading(shown, 66.6);
    await until(() => app.store.getLive(shown)?.readings?.DHT?.humidity === 66.6, "the shown MCU's reading");
    expect(app.store.getLive(hidden)?.readings?.DHT?.humidity).not.toBe(55.5);

    function Humidity({ mac }: { mac: string }) {
      const humidity = useMcuLiveWith(mac, (live) => live?.readings?.DHT?.humidity ?? "none", Object.is);
      return <output>{humidity}</output>;
    }
    const host = document.createElement("div");
    document.body.append(host);
    const root = createRoot(host);
    await act(async () => root.render(<AppDataProvider value={app}><Humidity mac={hidden} /></AppDataProvider>));
    await until(() => host.textContent === "55.5", "the mounted card to show the latest reading");

    await act(async () => root.unmount());
    host.remove();
    unwatch();
  });

  it("sends a command and resolves with the device's acknowledgement", async () => {
    const mac = macs[0]!;
    const unwatch = watch(mac);
    expect(await app.core.sendCommand(mac, "Humidifier", "status", true)).toEqual({ ok: false, message: "Turn Automation off to switch Humidifier by hand", reason: "device_refused" });
    expect(await app.core.sendCommand(mac, "Humidifier", "auto", false)).toEqual({ ok: true });
    expect(await app.core.sendCommand(mac, "Humidifier", "status", true)).toEqual({ ok: true });
    await until(() => app.store.getLive(mac)?.readings?.Humidifier?.status === true, "the device to report the new state");
    // The acknowledgement and the reading that shows the new state come separately; the pending mark goes once both have.
    await until(() => app.store.getLive(mac)?.pending === null, "the pending mark to go");
    expect(app.store.getLive(mac)!.pending).toBeNull();
    unwatch();
  });

  it("reconnects after the server restarts and receives data again", async () => {
    const unwatch = watch(macs[1]!);
    const states: string[] = [];
    const off = app.store.subscribe(keys.connection, () => states.push(app.store.getConnection().state));
    await commands.restartServer();
    await until(() => states.includes("reconnecting"), "the core to notice the restart");
    await until(() => app.store.getConnection().state === "connected", `the core to reconnect (went through ${states.join(", ")}: ${app.store.getConnection().message})`, 20_000);
    off();
    // The devices reconnect too; a new reading arrives over the new connection.
    await until(() => app.store.getLive(macs[1]!)?.status === "online", "the device to be back", 20_000);
    await commands.publishReading(macs[1]!, 64.2);
    await until(() => app.store.getLive(macs[1]!)?.readings?.DHT?.humidity === 64.2, "a reading after the restart", 10_000);
    unwatch();
  });
});

describe("a data core worker that cannot load its code", () => {
  it("runs the core in the page instead of waiting for the worker forever", async () => {
    // A worker whose script fails as it runs, as one whose chunk was lost on the network does.
    const url = URL.createObjectURL(new Blob(["throw new Error('chunk lost');"], { type: "text/javascript" }));
    const worker = new Worker(url, { type: "module" });
    const failed = new Promise<never>((_, reject) => worker.addEventListener("error", () => reject(new Error("failed")), { once: true }));
    failed.catch(() => undefined);
    globalThis.__dataCoreWorker = { worker, failed, onFirstMcus: () => undefined };
    const app = createAppData({ storage: sessionStorage });
    try {
      expect((await app.ready).inWorker).toBe(false);
      expect(globalThis.__dataCoreWorker).toBeUndefined();
    } finally {
      app.terminate();
      URL.revokeObjectURL(url);
    }
  });
});

describe("a returning farmer's first screen", () => {
  /** A worker whose first lines send the first screen's records and whose core never comes up (it answers no call). */
  function workerSendingFirstScreen() {
    const records = [mcuRecord(0), mcuRecord(1)];
    const message = { kind: "first-mcus", mcus: records, cards: records.map((m) => cardView(m, undefined)), managerCards: records.map((m) => managerCardView(m, undefined, Date.now())) };
    const url = URL.createObjectURL(new Blob([`postMessage(${JSON.stringify(message)});`], { type: "text/javascript" }));
    const worker = new Worker(url, { type: "module" });
    return { worker, records, done: () => URL.revokeObjectURL(url) };
  }

  it("shows the records the worker sent before its core is up, whether they came before the app listened or after", async () => {
    for (const appFirst of [false, true]) {
      const { worker, done } = workerSendingFirstScreen();
      const onFirstMcus = watchFirstMcus(worker);
      // The message is held until the app takes it (it comes before the app's code has loaded).
      if (!appFirst) await new Promise((r) => setTimeout(r, 300));
      globalThis.__dataCoreWorker = { worker, failed: new Promise<never>(() => {}), onFirstMcus };
      const app = createAppData({ storage: sessionStorage });
      let up = false;
      void app.ready.then(() => (up = true));
      try {
        await until(() => app.store.getIds("mcus").length === 2, "the first screen's records in the store");
        expect(app.store.getCard(1)?.name).toBe("Room 1");
        expect(app.store.getCard(2)?.farmName).toBe("Farm 1");
        expect(app.store.getManagerCard(2)?.lastSeenText).toBe("Never");
        expect(up).toBe(false);
      } finally {
        app.terminate();
        worker.terminate();
        done();
      }
    }
  });
});
