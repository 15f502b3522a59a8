import type { CDPSession } from "playwright";

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; beginData?: { dirtyObjects?: number; totalObjects?: number; partialLayout?: boolean; stackTrace?: unknown }; endData?: unknown };
}

/** Starts a CDP trace of these categories; the returned function ends it and answers its events. */
async function startTrace(cdp: CDPSession, categories: string[]): Promise<() => Promise<(TraceEvent & { id?: string })[]>> {
  const events: (TraceEvent & { id?: string })[] = [];
  const collect = (e: { value: unknown }) => events.push(...(e.value as TraceEvent[]));
  cdp.on("Tracing.dataCollected", collect);
  await cdp.send("Tracing.start", { transferMode: "ReportEvents", traceConfig: { includedCategories: categories } });
  return async () => {
    const done = new Promise<void>((resolve) => cdp.once("Tracing.tracingComplete", () => resolve()));
    await cdp.send("Tracing.end");
    await done;
    cdp.off("Tracing.dataCollected", collect);
    return events;
  };
}

/**
 * Where a page's threads spend their time, from a CDP trace of `ms` milliseconds: per thread, the
 * total duration of the top-level tasks and the event names that take the most (self-nested
 * events are counted in their parent too). A diagnostic for the bench (BENCH_TRACE=1), not a figure.
 */
export async function traceSummary(cdp: CDPSession, ms: number, top = Number(process.env.BENCH_TRACE_TOP ?? 14)): Promise<string> {
  const stop = await startTrace(cdp, ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute", "blink", "cc", "gpu", "toplevel", "__metadata"]);
  await new Promise((r) => setTimeout(r, ms));
  const events = await stop();

  const threadNames = new Map<string, string>();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? "?");
  const perThread = new Map<string, Map<string, number>>();
  const counts = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== "X" || !e.dur) continue;
    const key = `${e.pid}:${e.tid}`;
    let m = perThread.get(key);
    if (!m) perThread.set(key, (m = new Map()));
    m.set(e.name, (m.get(e.name) ?? 0) + e.dur / 1000);
    counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
  }
  const lines: string[] = [];
  const layouts = events.filter((e) => e.name === "Layout" && e.ph === "X");
  const hist = new Map<string, number>();
  for (const e of layouts) {
    const b = e.args?.beginData;
    const k = `dirty ${b?.dirtyObjects} of ${b?.totalObjects}${b?.partialLayout ? " partial" : ""} roots ${JSON.stringify((e.args?.endData as { layoutRoots?: unknown[] })?.layoutRoots?.length)}`;
    hist.set(k, (hist.get(k) ?? 0) + 1);
  }
  lines.push("  layouts: " + [...hist].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, n]) => `${n}× ${k}`).join("; "));
  const inv = new Map<string, number>();
  for (const e of events) {
    if (e.name !== "LayoutInvalidationTracking" && e.name !== "ScheduleStyleInvalidationTracking") continue;
    const d = (e.args as { data?: { reason?: string; nodeName?: string } })?.data;
    const k = `${e.name}:${d?.reason}:${d?.nodeName}`;
    inv.set(k, (inv.get(k) ?? 0) + 1);
  }
  lines.push("  invalidations: " + [...inv].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([k, n]) => `${n}× ${k}`).join("; "));
  const seconds = ms / 1000;
  const rows = [...perThread].map(([key, m]) => ({ name: threadNames.get(key) ?? key, m, task: (m.get("RunTask") ?? 0) + (m.get("ThreadControllerImpl::RunTask") ?? 0) }));
  rows.sort((a, b) => b.task - a.task);
  for (const { name, m, task } of rows.slice(0, 8)) {
    lines.push(`  ${name}: tasks ${(task / seconds).toFixed(1)} ms/s`);
    const sorted = [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
    for (const [ev, total] of sorted) lines.push(`      ${(total / seconds).toFixed(1).padStart(7)} ms/s  ${ev}  (${counts.get(ev)})`);
  }
  return lines.join("\n");
}

/**
 * Starts a CDP trace; the returned function ends it and answers the timeline of the page's main
 * thread and its worker: every top-level task of at least `minMs`, with what ran in it (scripts
 * evaluated, functions called, parse/compile, style/layout/paint), from the trace's first event.
 * A diagnostic for the bench's load (BENCH_LOAD_TRACE=1), not a figure.
 */
export async function startTimeline(cdp: CDPSession, minMs = 4): Promise<() => Promise<string>> {
  const stop = await startTrace(cdp, ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute", "blink", "blink.user_timing", "loading", "toplevel", "__metadata"]);
  return async () => {
    const events = await stop();
    const threadNames = new Map<string, string>();
    for (const e of events) if (e.ph === "M" && e.name === "thread_name") threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? "?");
    const wanted = (k: string) => /CrRendererMain|DedicatedWorker/.test(threadNames.get(k) ?? "");
    const t0 = Math.min(...events.filter((e) => e.ts > 0 && e.ph !== "M").map((e) => e.ts));
    const tops = events.filter((e) => e.ph === "X" && (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") && (e.dur ?? 0) >= minMs * 1000 && wanted(`${e.pid}:${e.tid}`));
    const lines: string[] = [];
    for (const t of tops.sort((a, b) => a.ts - b.ts)) {
      const key = `${t.pid}:${t.tid}`;
      const inner = events.filter((e) => `${e.pid}:${e.tid}` === key && e.ph === "X" && e.ts >= t.ts && e.ts < t.ts + t.dur! && e !== t && (e.dur ?? 0) >= 1000);
      const what = new Map<string, number>();
      for (const e of inner) {
        const d = (e.args as { data?: { url?: string; functionName?: string } })?.data;
        const url = d?.url ? d.url.split("/").pop()!.replace(/-[\w-]{8}\.js$/, ".js") : "";
        const name = /RunTask|ThreadController/.test(e.name) ? "" : `${e.name}${url ? " " + url : ""}${d?.functionName ? " " + d.functionName : ""}`;
        if (name) what.set(name, Math.max(what.get(name) ?? 0, e.dur! / 1000));
      }
      const top = [...what].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", ");
      lines.push(`    ${((t.ts - t0) / 1000).toFixed(0).padStart(5)} ms +${(t.dur! / 1000).toFixed(0).padStart(4)} ${(threadNames.get(key) ?? key).slice(0, 14).padEnd(14)} ${top}`);
    }
    for (const e of events) {
      if (e.ph === "R" || (e.ph === "I" && /mark|navigationStart|firstContentfulPaint/.test(e.name))) lines.push(`    ${((e.ts - t0) / 1000).toFixed(0).padStart(5)} ms mark ${e.name} ${threadNames.get(`${e.pid}:${e.tid}`) ?? ""}`);
    }
    return lines.join("\n");
  };
}

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/**
 * Where the page's threads run script, from the V8 sampling profiler of a CDP trace of `ms`
 * milliseconds (the trace's cpu_profiler category reaches the worker, which a page's CDP session
 * cannot profile directly): per thread, self time by function. A diagnostic (BENCH_TRACE=1).
 */
export async function threadProfiles(cdp: CDPSession, ms: number, top = 18): Promise<string> {
  const stop = await startTrace(cdp, ["disabled-by-default-v8.cpu_profiler", "__metadata"]);
  await new Promise((r) => setTimeout(r, ms));
  const events = await stop();
  const threadNames = new Map<string, string>();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? "?");
  // A profile's chunks share its id; nodes arrive incrementally across chunks.
  const profiles = new Map<string, { thread: string; nodes: Map<number, ProfileNode>; self: Map<number, number> }>();
  for (const e of events) {
    if (e.name !== "Profile" && e.name !== "ProfileChunk") continue;
    const key = `${e.pid}:${e.id}`;
    let p = profiles.get(key);
    if (!p) profiles.set(key, (p = { thread: threadNames.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`, nodes: new Map(), self: new Map() }));
    if (e.name === "Profile") continue;
    const data = (e.args as { data?: { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] } }).data;
    for (const n of data?.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    const samples = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    samples.forEach((id, i) => p!.self.set(id, (p!.self.get(id) ?? 0) + (deltas[i] ?? 0) / 1000));
  }
  const lines: string[] = [];
  for (const p of profiles.values()) {
    if (!/CrRendererMain|DedicatedWorker/.test(p.thread)) continue;
    const byFn = new Map<string, number>();
    let busy = 0;
    for (const [id, t] of p.self) {
      const n = p.nodes.get(id);
      const f = n?.callFrame;
      if (!f || f.functionName === "(idle)") continue;
      busy += t;
      const file = ((f.url ?? "").split("/").pop() || "(native)").replace(/-[\w-]{8}\.js$/, ".js");
      const k = `${file} ${f.functionName || "(anon)"}:${f.lineNumber}`;
      byFn.set(k, (byFn.get(k) ?? 0) + t);
    }
    lines.push(`  ${p.thread}: sampled busy ${(busy / (ms / 1000)).toFixed(0)} ms/s`);
    for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`      ${(v / (ms / 1000)).toFixed(1).padStart(7)} ms/s  ${k}`);
  }
  return lines.join("\n");
}
