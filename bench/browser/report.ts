import type { ClientKind, PageRun } from "./measure.ts";

export interface Row extends PageRun {
  /** Our app's page measured (the naive client is always its dashboard). */
  page: "dashboard" | "wall";
  mcus: number;
  feed: "replay" | "simulator";
  client: ClientKind;
  /** The language our app was read in (the naive client's is English). */
  language: string;
  run: number;
  /** Readings the feed produced per second while this client was measured. */
  feedReadingsPerSec: number;
}

/** Medians over the runs of one level, feed and client. */
export interface ClientSummary {
  runs: number;
  busyMsPerSec: number;
  cpuMsPerSec: number;
  longTasks: number;
  fps: number;
  slowFramePct: number;
  p50Ms: number | null;
  p95Ms: number | null;
  heapEndMB: number;
  heapGrowthMBPerMin: number;
  domElements: number;
  firstCardMs: number | null;
  visibleCardsMs: number | null;
  mcuFirstCardMs: number | null;
  mcuScrollFps: number | null;
  staticScrollFps: number | null;
}

export interface LevelSummary {
  mcus: number;
  feed: "replay" | "simulator";
  ours?: ClientSummary;
  naive?: ClientSummary;
  /** Our app read in each other language than English, measured in the same run. */
  oursIn: Record<string, ClientSummary>;
  /** ours / naive for each metric both have (below 1 is better for ours, except fps). */
  ratio: Partial<Record<keyof ClientSummary, number>>;
}

function median(values: (number | null | undefined)[]): number | null {
  const v = values.filter((x): x is number => typeof x === "number" && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid]! : +((v[mid - 1]! + v[mid]!) / 2).toFixed(2);
}

function summarizeClient(rows: Row[]): ClientSummary | undefined {
  if (rows.length === 0) return undefined;
  const m = (f: (r: Row) => number | null | undefined) => median(rows.map(f));
  return {
    runs: rows.length,
    busyMsPerSec: m((r) => r.window.busyMsPerSec)!,
    cpuMsPerSec: m((r) => r.window.cpuMsPerSec)!,
    longTasks: m((r) => r.window.longTasks)!,
    fps: m((r) => r.window.fps)!,
    slowFramePct: m((r) => r.window.slowFramePct)!,
    p50Ms: m((r) => r.window.p50Ms),
    p95Ms: m((r) => r.window.p95Ms),
    heapEndMB: m((r) => r.window.heapEndMB)!,
    heapGrowthMBPerMin: m((r) => r.window.heapGrowthMBPerMin)!,
    domElements: m((r) => r.window.domElements)!,
    firstCardMs: m((r) => r.load.firstCardMs),
    visibleCardsMs: m((r) => r.load.visibleCardsMs),
    mcuFirstCardMs: m((r) => r.mcuPage?.load.firstCardMs),
    mcuScrollFps: m((r) => r.mcuPage?.fps),
    staticScrollFps: m((r) => r.mcuPage?.staticFps),
  };
}

export function summarize(rows: Row[]): LevelSummary[] {
  const keys = [...new Set(rows.map((r) => `${r.mcus}|${r.feed}`))];
  return keys.map((key) => {
    const [mcus, feed] = key.split("|") as [string, "replay" | "simulator"];
    const of = (client: ClientKind, language = "en") => summarizeClient(rows.filter((r) => r.mcus === Number(mcus) && r.feed === feed && r.client === client && (r.language ?? "en") === language));
    const ours = of("ours");
    const naive = of("naive");
    const oursIn: Record<string, ClientSummary> = {};
    for (const language of new Set(rows.map((r) => r.language ?? "en"))) {
      const s = language === "en" ? undefined : of("ours", language);
      if (s) oursIn[language] = s;
    }
    const ratio: LevelSummary["ratio"] = {};
    if (ours && naive) {
      for (const k of ["busyMsPerSec", "cpuMsPerSec", "longTasks", "fps", "p50Ms", "p95Ms", "heapEndMB", "domElements", "firstCardMs", "visibleCardsMs"] as const) {
        const a = ours[k];
        const b = naive[k];
        if (typeof a === "number" && typeof b === "number" && b !== 0) ratio[k] = +(a / b).toFixed(2);
      }
    }
    return { mcus: Number(mcus), feed, ours, naive, oursIn, ratio };
  });
}

const cell = (v: unknown, width: number) => {
  const s = v === null || v === undefined ? "-" : String(v);
  return s.length >= width ? s : " ".repeat(width - s.length) + s;
};

const COLUMNS: [string, number, (r: Row) => unknown][] = [
  ["MCUs", 5, (r) => r.mcus],
  ["feed", 9, (r) => r.feed],
  ["client", 6, (r) => r.client],
  ["lang", 4, (r) => r.language],
  ["run", 3, (r) => r.run],
  ["busy ms/s", 9, (r) => r.window.busyMsPerSec],
  ["cpu ms/s", 8, (r) => r.window.cpuMsPerSec],
  ["script", 6, (r) => r.window.scriptMsPerSec],
  ["long", 4, (r) => r.window.longTasks],
  ["fps", 5, (r) => r.window.fps],
  [">33ms%", 6, (r) => r.window.slowFramePct],
  ["p50 ms", 6, (r) => r.window.p50Ms],
  ["p95 ms", 6, (r) => r.window.p95Ms],
  ["samples", 7, (r) => r.window.probeSamples],
  ["heap MB", 7, (r) => r.window.heapEndMB],
  ["MB/min", 6, (r) => r.window.heapGrowthMBPerMin],
  ["DOM", 7, (r) => r.window.domElements],
  ["cards", 5, (r) => r.window.mountedCards],
  ["1st card", 8, (r) => r.load.firstCardMs === null ? null : Math.round(r.load.firstCardMs)],
  ["visible", 7, (r) => r.load.visibleCardsMs === null ? null : Math.round(r.load.visibleCardsMs)],
  ["/mcu 1st", 8, (r) => (r.mcuPage?.load.firstCardMs == null ? null : Math.round(r.mcuPage.load.firstCardMs))],
  ["/mcu fps", 8, (r) => r.mcuPage?.fps],
  ["static fps", 10, (r) => r.mcuPage?.staticFps],
  ["feed/s", 6, (r) => r.feedReadingsPerSec],
];

/** One line per level × client × run; the header with the first. */
export function printRows(rows: Row[], header: boolean): void {
  if (header) console.log(COLUMNS.map(([name, w]) => cell(name, w)).join(" "));
  for (const r of rows) console.log(COLUMNS.map(([, w, f]) => cell(f(r), w)).join(" "));
}

export function printSummary(summary: LevelSummary[]): void {
  console.log("\nSummary (medians over runs; ratio = ours / naive)");
  const cols: [string, number, (s: ClientSummary | undefined, l: LevelSummary) => unknown][] = [
    ["busy ms/s", 9, (s) => s?.busyMsPerSec],
    ["cpu ms/s", 8, (s) => s?.cpuMsPerSec],
    ["long", 5, (s) => s?.longTasks],
    ["fps", 5, (s) => s?.fps],
    [">33ms%", 6, (s) => s?.slowFramePct],
    ["p50 ms", 6, (s) => s?.p50Ms],
    ["p95 ms", 6, (s) => s?.p95Ms],
    ["heap MB", 7, (s) => s?.heapEndMB],
    ["DOM", 7, (s) => s?.domElements],
    ["1st card", 8, (s) => (s?.firstCardMs == null ? null : Math.round(s.firstCardMs))],
    ["visible", 7, (s) => (s?.visibleCardsMs == null ? null : Math.round(s.visibleCardsMs))],
  ];
  console.log([cell("MCUs", 5), cell("feed", 9), cell("", 6), ...cols.map(([n, w]) => cell(n, w))].join(" "));
  for (const l of summary) {
    for (const client of ["ours", "naive"] as const) {
      const s = l[client];
      if (!s) continue;
      console.log([cell(l.mcus, 5), cell(l.feed, 9), cell(client, 6), ...cols.map(([, w, f]) => cell(f(s, l), w))].join(" "));
    }
    for (const [language, s] of Object.entries(l.oursIn ?? {})) console.log([cell(l.mcus, 5), cell(l.feed, 9), cell(`ours/${language}`, 6), ...cols.map(([, w, f]) => cell(f(s, l), w))].join(" "));
    if (l.ours && l.naive) {
      const r = l.ratio;
      const vals = [r.busyMsPerSec, r.cpuMsPerSec, r.longTasks, r.fps, null, r.p50Ms, r.p95Ms, r.heapEndMB, r.domElements, r.firstCardMs, r.visibleCardsMs];
      console.log([cell(l.mcus, 5), cell(l.feed, 9), cell("ratio", 6), ...cols.map(([, w], i) => cell(vals[i], w))].join(" "));
    }
  }
}

export interface Goal {
  goal: string;
  status: "met" | "not met" | "not measured";
  detail?: string;
}

/** The live dashboard's goals (main-thread cost, frames, latency, memory), judged on the medians of the replay feed. */
export function checkGoals(rows: Row[], summary: LevelSummary[]): Goal[] {
  const at = (n: number) => summary.find((l) => l.mcus === n && l.feed === "replay");
  const goals: Goal[] = [];
  const judge = (goal: string, ok: boolean | undefined, detail?: string) =>
    goals.push({ goal, status: ok === undefined ? "not measured" : ok ? "met" : "not met", ...(detail ? { detail } : {}) });

  const l2000 = at(2000);
  const o = l2000?.ours;
  const n = l2000?.naive;
  const runs2000 = rows.filter((r) => r.mcus === 2000 && r.feed === "replay" && r.client === "ours");
  judge("2000 MCUs: main-thread busy <= 150 ms/s", o && o.busyMsPerSec <= 150, o && `${o.busyMsPerSec} ms/s`);
  judge("2000 MCUs: busy >= 5x less than naive", o && n && n.busyMsPerSec >= 5 * o.busyMsPerSec, o && n && `${(n.busyMsPerSec / o.busyMsPerSec).toFixed(1)}x`);
  judge("2000 MCUs: 0 long tasks after warm-up", runs2000.length ? runs2000.every((r) => r.window.longTasks === 0) : undefined, runs2000.map((r) => r.window.longTasks).join(", "));
  judge("2000 MCUs: >= 55 fps with <= 1% of frames over 33 ms", o && o.fps >= 55 && o.slowFramePct <= 1, o && `${o.fps} fps, ${o.slowFramePct}%`);
  judge("2000 MCUs: probe event-to-paint p95 <= 100 ms", o && o.p95Ms !== null && o.p95Ms <= 100, o && `${o.p95Ms ?? "never painted"} ms`);
  judge("2000 MCUs: <= 5000 DOM elements", o && o.domElements <= 5000, o && String(o.domElements));
  judge("2000 MCUs: JS heap <= 60 MB, growing <= 1 MB/min", o && o.heapEndMB <= 60 && o.heapGrowthMBPerMin <= 1, o && `${o.heapEndMB} MB, ${o.heapGrowthMBPerMin} MB/min`);
  judge("2000 MCUs: first card <= 1 s after navigation", o && o.firstCardMs !== null && o.firstCardMs <= 1000, o && `${o.firstCardMs} ms`);
  const b100 = at(100)?.ours?.busyMsPerSec;
  const b5000 = at(5000)?.ours?.busyMsPerSec;
  judge("busy at 5000 MCUs within 1.5x of busy at 100", b100 !== undefined && b5000 !== undefined ? b5000 <= 1.5 * b100 : undefined, b100 !== undefined && b5000 !== undefined ? `${b5000} vs ${b100} ms/s` : undefined);
  for (const level of [25, 100]) {
    const l = at(level);
    const beats =
      l?.ours && l.naive
        ? l.ours.busyMsPerSec < l.naive.busyMsPerSec &&
          l.ours.longTasks <= l.naive.longTasks &&
          l.ours.fps >= l.naive.fps &&
          l.ours.p50Ms !== null &&
          (l.naive.p50Ms === null || l.ours.p50Ms < l.naive.p50Ms)
        : undefined;
    judge(
      `${level} MCUs: ours beats naive on busy time, long tasks, fps and event-to-paint`,
      beats,
      l?.ours && l.naive
        ? `busy ${l.ours.busyMsPerSec} vs ${l.naive.busyMsPerSec}, long ${l.ours.longTasks} vs ${l.naive.longTasks}, fps ${l.ours.fps} vs ${l.naive.fps}, p50 ${l.ours.p50Ms} vs ${l.naive.p50Ms}`
        : undefined,
    );
  }
  judge("/mcu with 2000 MCUs: first card <= 1 s", o?.mcuFirstCardMs != null ? o.mcuFirstCardMs <= 1000 : undefined, o?.mcuFirstCardMs != null ? `${o.mcuFirstCardMs} ms` : undefined);
  judge("/mcu with 2000 MCUs: scroll >= 50 fps", o?.mcuScrollFps != null ? o.mcuScrollFps >= 50 : undefined, o?.mcuScrollFps != null ? `${o.mcuScrollFps} fps (a static page of as many plain cards: ${o.staticScrollFps} fps)` : undefined);
  return goals;
}

/**
 * The goals of the wall view (ours), judged on the medians of the replay feed at
 * 2000 MCUs: one 4K screen, 2000 MCUs at 5 Hz.
 */
export function checkWallGoals(rows: Row[], summary: LevelSummary[]): Goal[] {
  const o = summary.find((l) => l.mcus === 2000 && l.feed === "replay")?.ours;
  const runs = rows.filter((r) => r.mcus === 2000 && r.feed === "replay" && r.client === "ours");
  const goals: Goal[] = [];
  const judge = (goal: string, ok: boolean | undefined, detail?: string) =>
    goals.push({ goal, status: ok === undefined ? "not measured" : ok ? "met" : "not met", ...(detail ? { detail } : {}) });
  judge("wall, 2000 MCUs: >= 55 fps", o && o.fps >= 55, o && `${o.fps} fps, ${o.slowFramePct}% of frames over 33 ms`);
  judge("wall, 2000 MCUs: main-thread busy <= 150 ms/s", o && o.busyMsPerSec <= 150, o && `${o.busyMsPerSec} ms/s`);
  judge("wall, 2000 MCUs: 0 long tasks after warm-up", runs.length ? runs.every((r) => r.window.longTasks === 0) : undefined, runs.map((r) => r.window.longTasks).join(", "));
  // A tile redraws its values once a second (streams/wall.ts WALL_TILE_VALUES_MS): what it draws is then the latest reading.
  judge("wall, 2000 MCUs: a probe's reading drawn at most 1 s after it was sent (p95)", o && o.p95Ms !== null && o.p95Ms <= 1000, o && `p50 ${o.p50Ms} ms, p95 ${o.p95Ms ?? "never painted"} ms`);
  judge("wall, 2000 MCUs: JS heap growing <= 1 MB/min", o && o.heapGrowthMBPerMin <= 1, o && `${o.heapEndMB} MB, ${o.heapGrowthMBPerMin} MB/min`);
  return goals;
}
