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

/**
 * Where a page's threads spend their time, from a CDP trace of `ms` milliseconds: per thread, the
 * total duration of the top-level tasks and the event names that take the most (self-nested
 * events are counted in their parent too). A diagnostic for the bench (BENCH_TRACE=1), not a figure.
 */
export async function traceSummary(cdp: CDPSession, ms: number, top = Number(process.env.BENCH_TRACE_TOP ?? 14)): Promise<string> {
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...(e.value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => cdp.once("Tracing.tracingComplete", () => resolve()));
  await cdp.send("Tracing.start", {
    transferMode: "ReportEvents",
    traceConfig: { includedCategories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute", "blink", "cc", "gpu", "toplevel", "__metadata"] },
  });
  await new Promise((r) => setTimeout(r, ms));
  await cdp.send("Tracing.end");
  await done;

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
