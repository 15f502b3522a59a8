import { startTimeline, threadProfiles, traceSummary } from "./trace.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, CDPSession, Page } from "playwright";

const PROBE_SCRIPT = readFileSync(join(import.meta.dirname, "page-probe.js"), "utf8");

export type ClientKind = "ours" | "naive";

export interface LoadResult {
  /** ms from navigation start to the first MCU card in the DOM (checked every frame). */
  firstCardMs: number | null;
  /** ms from navigation start until every card in the viewport shows its values. */
  visibleCardsMs: number | null;
  visibleCards: number;
}

export interface WindowResult {
  seconds: number;
  /** Main-thread task time per second of wall time (CDP Performance TaskDuration). */
  busyMsPerSec: number;
  /** The same tasks in thread CPU time (CDP Performance with timeDomain threadTicks). */
  cpuMsPerSec: number;
  scriptMsPerSec: number;
  layoutMsPerSec: number;
  styleMsPerSec: number;
  longTasks: number;
  longTaskMs: number;
  fps: number;
  slowFramePct: number;
  worstFrameMs: number;
  probeSamples: number;
  probesFound: number;
  p50Ms: number | null;
  p95Ms: number | null;
  maxMs: number | null;
  heapStartMB: number;
  heapEndMB: number;
  heapGrowthMBPerMin: number;
  domElements: number;
  mountedCards: number;
}

export interface ScrollResult {
  load: LoadResult;
  fps: number;
  slowFramePct: number;
  longTasks: number;
  scrolledPx: number;
  domElements: number;
  /**
   * The same scripted scroll over a static page of as many plain cards (no script, no live data) in
   * the same browser and viewport: what this machine's browser can do at this size at best.
   */
  staticFps: number;
}

/** A grid of `count` plain cards (a name, a MAC, four values), 6 to a row as on a wall. */
function staticCardsPage(count: number): string {
  const card = (i: number) =>
    `<article style="border:1px solid #e5e7eb;border-radius:16px;padding:16px;background:#fff;box-shadow:0 1px 2px #0000000d"><h3 style="margin:0 0 4px;font:600 20px sans-serif">Room ${i + 1}</h3><p style="margin:0 0 12px;color:#6b7280">02:00:00:00:${(i >> 8).toString(16)}:${(i & 255).toString(16)}</p><dl style="display:grid;grid-template-columns:1fr 1fr;gap:8px;margin:0"><dt>Temp</dt><dd style="margin:0">21.3 °C</dd><dt>Humidity</dt><dd style="margin:0">88 %</dd><dt>CO2</dt><dd style="margin:0">900 ppm</dd><dt>Battery</dt><dd style="margin:0">80 %</dd></dl></article>`;
  return `<!doctype html><body style="margin:0;background:#f9fafb;font-family:sans-serif"><main style="display:grid;grid-template-columns:repeat(6,1fr);gap:24px;padding:40px">${Array.from({ length: count }, (_, i) => card(i)).join("")}</main></body>`;
}

export interface PageRunOptions {
  browser: Browser;
  origin: string;
  kind: ClientKind;
  sid: string;
  client: unknown;
  expectedCards: number;
  probeNames: string[];
  viewport: { width: number; height: number };
  /** Our app's page to measure (default /dashboard); the naive client has one page. */
  path?: string;
  warmupSec: number;
  seconds: number;
  /** Also load /mcu and scroll it (our app only). */
  mcuPage: boolean;
  /** The language our app shows (its texts fetched as a person reading it would); the naive client has English only. */
  language?: string;
  /** Called after the load, before the warm-up: e.g. to note the feed's counters. */
  log(message: string): void;
}

export interface PageRun {
  load: LoadResult;
  window: WindowResult;
  mcuPage?: ScrollResult;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const MB = 1024 * 1024;

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics } = await cdp.send("Performance.getMetrics");
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

/** JS heap of the page's main thread after a forced full GC. */
async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send("HeapProfiler.collectGarbage");
  const { usedSize } = await cdp.send("Runtime.getHeapUsage");
  return usedSize;
}

async function waitForLoad(page: Page, timeoutMs: number): Promise<LoadResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = (await page.evaluate("window.__bench && window.__bench.loadResult()")) as { firstCardAt: number | null; visibleCardsAt: number | null; visibleCards: number } | null;
    if (r?.visibleCardsAt != null || Date.now() > deadline) {
      return { firstCardMs: r?.firstCardAt ?? null, visibleCardsMs: r?.visibleCardsAt ?? null, visibleCards: r?.visibleCards ?? 0 };
    }
    await sleep(100);
  }
}

const round = (v: number, digits = 1) => +v.toFixed(digits);

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Starts a CPU profile of the page's main thread; the returned function stops it and answers where the time went (diagnostic). */
async function startProfile(cdp: CDPSession): Promise<() => Promise<string>> {
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  return async () => {
    const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
    const self = new Map<string, number>();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const n = byId.get(id)!;
      const file = (n.callFrame.url.split("/").pop() || "(native)").replace(/-[\w-]{8}\.js$/, ".js");
      const k = `${file} ${n.callFrame.functionName || "(anon)"}:${n.callFrame.lineNumber}`;
      self.set(k, (self.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    const perFile = new Map<string, number>();
    for (const [k, v] of self) perFile.set(k.split(" ")[0]!, (perFile.get(k.split(" ")[0]!) ?? 0) + v);
    const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${k} ${Math.round(v)}`).join(", ");
    return `    self ms by file: ${top(perFile, 12)}\n    by function: ${top(self, 20)}`;
  };
}

/**
 * One client in a fresh browser context: signed in (the session cookie and the stored client, as
 * the app keeps them after its login page), dashboard loaded, warmed up, then one window measured
 * with CDP (main-thread task time, heap after GC) and the in-page probe (frames, long tasks,
 * probe event-to-paint, DOM size).
 */
export async function measureClient(o: PageRunOptions): Promise<PageRun> {
  const context = await o.browser.newContext({ viewport: o.viewport, deviceScaleFactor: 1, serviceWorkers: "block" });
  try {
    await context.addCookies([{ name: "sid", value: o.sid, url: o.origin, httpOnly: true, sameSite: "Lax" }]);
    const page = await context.newPage();
    // A dashboard card has its values when it shows its CO2; the MCU Manager's cards have none.
    await page.addInitScript({
      content: [
        `try { localStorage.setItem("client", ${JSON.stringify(JSON.stringify(o.language ? { ...(o.client as object), language: o.language } : o.client))}); } catch {}`,
        // Digits in either system: a language may write them Arabic-Indic.
        `window.__benchConfig = { expectedCards: ${o.expectedCards}, valuePattern: location.pathname === "/mcu" ? null : ${JSON.stringify(String.raw`[\d\u0660-\u0669]\s*ppm`)} };`,
        PROBE_SCRIPT,
      ].join("\n"),
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable", { timeDomain: "timeTicks" });
    // A second session counts the same tasks in thread CPU time: on a shared machine a task's wall
    // time includes the time the OS ran something else, its CPU time does not.
    const cpu = await context.newCDPSession(page);
    await cpu.send("Performance.enable", { timeDomain: "threadTicks" });
    page.on("pageerror", (err) => o.log(`  page error (${o.kind}): ${err.message}`));
    if (process.env.BENCH_CONSOLE) page.on("console", (m) => o.log(`  console (${o.kind}): ${m.text()}`));

    const path = o.kind === "ours" ? (o.path ?? "/dashboard") : "/naive/index.html";
    const loadTimeout = 30_000 + o.expectedCards * 20;
    const requests: string[] = [];
    if (process.env.BENCH_TRACE) {
      const started = new Map<string, { url: string; t: number }>();
      let t0 = 0;
      await cdp.send("Network.enable");
      cdp.on("Network.requestWillBeSent", (e: { requestId: string; request: { url: string }; timestamp: number }) => {
        if (!t0) t0 = e.timestamp;
        started.set(e.requestId, { url: e.request.url.replace(o.origin, ""), t: e.timestamp });
      });
      cdp.on("Network.loadingFinished", (e: { requestId: string; timestamp: number; encodedDataLength: number }) => {
        const s = started.get(e.requestId);
        if (s) requests.push(`${Math.round((s.t - t0) * 1000)}-${Math.round((e.timestamp - t0) * 1000)} ms ${s.url.slice(0, 80)} ${e.encodedDataLength} B`);
      });
      const navAt = Date.now();
      page.on("requestfinished", (r) => {
        const t = r.timing();
        if (r.frame() === null || !r.url().includes("/api/")) requests.push(`(pw) ${Math.round(t.startTime - navAt)}+${Math.round(t.responseEnd)} ms ${r.url().replace(o.origin, "").slice(0, 80)}`);
      });
    }
    const loadProfile = process.env.BENCH_TRACE ? await startProfile(cdp) : null;
    const timeline = process.env.BENCH_LOAD_TRACE ? await startTimeline(cdp) : null;
    await page.goto(o.origin + path, { waitUntil: "commit" });
    const load = await waitForLoad(page, loadTimeout);
    if (timeline) o.log(`  load timeline (${o.kind}), first card ${Math.round(load.firstCardMs ?? -1)} ms:\n${await timeline()}`);
    if (loadProfile) o.log(`  load profile (main thread):\n${await loadProfile()}`);
    if (process.env.BENCH_TRACE) o.log(`  requests (${o.kind}), first card ${Math.round(load.firstCardMs ?? -1)} ms:\n    ` + requests.join("\n    "));
    if (load.visibleCardsMs === null) o.log(`  ${o.kind}: the visible cards did not all show values within ${loadTimeout / 1000} s`);

    await sleep(o.warmupSec * 1000);
    const heapStart = await heapAfterGc(cdp);
    const m0 = await metrics(cdp);
    const c0 = await metrics(cpu);
    const started = (await page.evaluate(`window.__bench.startWindow(${JSON.stringify(o.probeNames)})`)) as { probesFound: number };
    if (started.probesFound < o.probeNames.length) o.log(`  ${o.kind}: found ${started.probesFound} of ${o.probeNames.length} probe cards`);
    if (process.env.BENCH_TRACE) o.log(`  trace of 5 s (${o.kind}):\n` + (await traceSummary(cdp, 5000)));
    if (process.env.BENCH_TRACE) o.log(`  script profile of 5 s (${o.kind}):\n` + (await threadProfiles(cdp, 5000)));
    await sleep(o.seconds * 1000);
    const m1 = await metrics(cdp);
    const c1 = await metrics(cpu);
    const w = (await page.evaluate("window.__bench.endWindow()")) as {
      durationMs: number;
      frames: number;
      slowFrames: number;
      worstFrameMs: number;
      longTasks: number;
      longTaskMs: number;
      latencies: number[];
      probesFound: number;
    };
    const heapEnd = await heapAfterGc(cdp);
    const domElements = (await page.evaluate("window.__bench.domElements()")) as number;
    const mountedCards = (await page.evaluate("window.__bench.mountedCards()")) as number;

    const wall = m1.Timestamp! - m0.Timestamp!;
    const perSec = (name: string) => round(((m1[name]! - m0[name]!) * 1000) / wall);
    const sorted = [...w.latencies].sort((a, b) => a - b);
    const window: WindowResult = {
      seconds: round(wall),
      busyMsPerSec: perSec("TaskDuration"),
      cpuMsPerSec: round(((c1.TaskDuration! - c0.TaskDuration!) * 1000) / wall),
      scriptMsPerSec: perSec("ScriptDuration"),
      layoutMsPerSec: perSec("LayoutDuration"),
      styleMsPerSec: perSec("RecalcStyleDuration"),
      longTasks: w.longTasks,
      longTaskMs: Math.round(w.longTaskMs),
      fps: round((w.frames * 1000) / w.durationMs),
      slowFramePct: w.frames ? round((w.slowFrames * 100) / w.frames, 2) : 100,
      worstFrameMs: Math.round(w.worstFrameMs),
      probeSamples: sorted.length,
      probesFound: w.probesFound,
      p50Ms: percentile(sorted, 50),
      p95Ms: percentile(sorted, 95),
      maxMs: sorted.length ? sorted[sorted.length - 1]! : null,
      heapStartMB: round(heapStart / MB),
      heapEndMB: round(heapEnd / MB),
      heapGrowthMBPerMin: round(((heapEnd - heapStart) / MB) * (60 / wall), 2),
      domElements,
      mountedCards,
    };

    let mcuPage: ScrollResult | undefined;
    if (o.mcuPage) {
      await page.goto(o.origin + "/mcu", { waitUntil: "commit" });
      const mcuLoad = await waitForLoad(page, loadTimeout);
      await sleep(2000);
      const tracing = process.env.BENCH_TRACE ? traceSummary(cdp, 4000) : null;
      const scrollProfile = process.env.BENCH_TRACE ? await startProfile(cdp) : null;
      const s = (await page.evaluate("window.__bench.scrollTest(5000, 120, 16)")) as { durationMs: number; frames: number; slowFrames: number; longTasks: number; scrolledPx: number };
      if (scrollProfile) o.log(`  /mcu scroll profile (main thread):\n${await scrollProfile()}`);
      if (tracing) o.log(`  trace of the /mcu scroll:\n${await tracing}`);
      mcuPage = {
        load: mcuLoad,
        fps: round((s.frames * 1000) / s.durationMs),
        slowFramePct: s.frames ? round((s.slowFrames * 100) / s.frames, 2) : 100,
        longTasks: s.longTasks,
        scrolledPx: Math.round(s.scrolledPx),
        domElements: (await page.evaluate("window.__bench.domElements()")) as number,
        staticFps: 0,
      };
      await page.goto("about:blank");
      await page.setContent(staticCardsPage(o.expectedCards));
      await sleep(1000);
      const st = (await page.evaluate("window.__bench.scrollTest(5000, 120, 16)")) as { durationMs: number; frames: number };
      mcuPage.staticFps = round((st.frames * 1000) / st.durationMs);
    }
    return { load, window, mcuPage };
  } finally {
    await context.close();
  }
}
