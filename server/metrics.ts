import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { GatewayStats } from "./devices/gateway.ts";
import type { HistoryStats } from "./history/history-writer.ts";

/**
 * A histogram since the node started, as Prometheus keeps one: nothing is reset when it is read,
 * so any number of readers can each take two reads and compare them (metricsWindow).
 */
export interface HistogramSnapshot {
  count: number;
  sumMs: number;
  /** How many took at most `leMs`, for each bound (cumulative; those above the last bound are in `count` only). */
  buckets: { leMs: number; count: number }[];
}

/** One server node's counters: what `GET /api/metrics` answers (to this machine only). Every figure is since the node started. */
export interface NodeMetrics {
  at: string;
  pid: number;
  uptimeSec: number;
  /** CPU time of the whole process (every thread: the database thread too), since it started. */
  cpuUs: number;
  rssBytes: number;
  heapUsedBytes: number;
  gateway: GatewayStats;
  devicesConnected: number | null;
  sockets: { connected: number; droppedEvents: number; shedFrames: number };
  /** Reading history's writes on this node since it started (server/history/history-writer.ts). */
  history: HistoryStats;
  /** Event-loop delay since the node listened, and its p50, p99 and max over that time (the route adds it). */
  loop?: HistogramSnapshot & { p50Ms: number; p99Ms: number; maxMs: number };
  /** API requests answered and how long this node took for each, arrival to last byte (the route adds it; percentiles null: none). */
  http?: HistogramSnapshot & { requests: number; p50Ms: number | null; p99Ms: number | null };
}

/** What happened between two reads of one node's metrics. */
export interface MetricsWindow {
  seconds: number;
  /** Event-loop delay in the window; `maxMs` is the upper bound of the highest bucket reached. */
  loop: { samples: number; p50Ms: number; p99Ms: number; maxMs: number };
  http: { requests: number; p50Ms: number | null; p99Ms: number | null };
}

/**
 * Bucket bounds (ms) of the event-loop delay and request times: fine where a healthy node is (below
 * 10 ms), coarser up to the 15 s a request may take. A percentile read from them is interpolated
 * within its bucket, as Prometheus' histogram_quantile does.
 */
export const DURATION_BUCKETS_MS = [0.25, 0.5, 1, 2, 3, 5, 7.5, 10, 15, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 2000, 5000, 15_000];

/** monitorEventLoopDelay's way: a timer every RESOLUTION ms, and how much later than that it fired. */
const LOOP_RESOLUTION_MS = 10;

const EMPTY: HistogramSnapshot = { count: 0, sumMs: 0, buckets: [] };

/** A prom-client histogram (in seconds, without labels) as a snapshot in ms. */
export async function snapshotOf(histogram: Histogram): Promise<HistogramSnapshot> {
  const { values } = await histogram.get();
  const snapshot: HistogramSnapshot = { count: 0, sumMs: 0, buckets: [] };
  for (const v of values) {
    if (v.metricName?.endsWith("_bucket") && v.labels.le !== "+Inf") snapshot.buckets.push({ leMs: +(Number(v.labels.le) * 1000).toFixed(3), count: v.value });
    else if (v.metricName?.endsWith("_sum")) snapshot.sumMs = +(v.value * 1000).toFixed(3);
    else if (v.metricName?.endsWith("_count")) snapshot.count = v.value;
  }
  return snapshot;
}

/** What was observed between `before` and `after` (two reads of the same histogram). */
export function histogramDelta(before: HistogramSnapshot | undefined, after: HistogramSnapshot): HistogramSnapshot {
  const b = before ?? EMPTY;
  const earlier = new Map(b.buckets.map((x) => [x.leMs, x.count]));
  return {
    count: after.count - b.count,
    sumMs: +(after.sumMs - b.sumMs).toFixed(3),
    buckets: after.buckets.map((x) => ({ leMs: x.leMs, count: x.count - (earlier.get(x.leMs) ?? 0) })),
  };
}

/** The `q` quantile (0..1) of a histogram, interpolated within its bucket; null when it holds nothing. */
export function quantileMs(h: HistogramSnapshot, q: number): number | null {
  if (h.count === 0) return null;
  const rank = q * h.count;
  let lower = 0;
  let below = 0;
  for (const bucket of h.buckets) {
    if (bucket.count >= rank) {
      const within = bucket.count - below;
      return +(within === 0 ? bucket.leMs : lower + ((bucket.leMs - lower) * (rank - below)) / within).toFixed(3);
    }
    lower = bucket.leMs;
    below = bucket.count;
  }
  // Above the last bound: that bound is all a histogram can tell (histogram_quantile answers the same).
  return lower;
}

/** The upper bound of the highest bucket holding anything (the last bound when some were above it). */
export function maxBoundMs(h: HistogramSnapshot): number {
  if (h.count === 0) return 0;
  return h.buckets.find((b) => b.count === h.count)?.leMs ?? h.buckets.at(-1)?.leMs ?? 0;
}

/**
 * The figures of the time between two reads of the same node (`before` first): what the node
 * answered once per read while a read reset its windows, now any reader's own.
 */
export function metricsWindow(before: NodeMetrics, after: NodeMetrics): MetricsWindow {
  const loop = after.loop ? histogramDelta(before.loop, after.loop) : EMPTY;
  const http = after.http ? histogramDelta(before.http, after.http) : EMPTY;
  return {
    seconds: (Date.parse(after.at) - Date.parse(before.at)) / 1000,
    loop: { samples: loop.count, p50Ms: quantileMs(loop, 0.5) ?? 0, p99Ms: quantileMs(loop, 0.99) ?? 0, maxMs: maxBoundMs(loop) },
    http: { requests: http.count, p50Ms: quantileMs(http, 0.5), p99Ms: quantileMs(http, 0.99) },
  };
}

/** A histogram of durations observed in seconds (Prometheus' unit), on the bounds above. */
export function durationHistogram(registry: Registry, name: string, help: string): Histogram {
  return new Histogram({ name, help, buckets: DURATION_BUCKETS_MS.map((ms) => ms / 1000), registers: [registry] });
}

/**
 * Samples the event loop's delay into `histogram` until stopped: a timer every 10 ms, and how much
 * later than that it ran (what monitorEventLoopDelay measures, here into buckets that are never
 * reset). Its maximum is kept apart: a histogram only knows a bucket.
 */
export function sampleLoopDelay(histogram: Histogram): { maxMs(): number; stop(): void } {
  let last = performance.now();
  let max = 0;
  const timer = setInterval(() => {
    const t = performance.now();
    const delay = Math.max(0, t - last - LOOP_RESOLUTION_MS);
    last = t;
    if (delay > max) max = delay;
    histogram.observe(delay / 1000);
  }, LOOP_RESOLUTION_MS);
  timer.unref();
  return { maxMs: () => +max.toFixed(2), stop: () => clearInterval(timer) };
}

/**
 * The node's counters in a Prometheus registry, read from `current()` when it is scraped (one
 * snapshot per scrape: the caller takes it just before). Counters are totals since the start,
 * the rest gauges.
 */
export function registerNodeMetrics(registry: Registry, current: () => NodeMetrics | undefined): void {
  const registers = [registry];
  type Values<L extends string> = (m: NodeMetrics) => [Partial<Record<L, string>>, number][];
  // Each scrape starts the metric from zero and adds the snapshot's values: a counter then holds
  // the total, and a gauge (no label twice in one snapshot) the value, as `set` would leave it.
  const collect = <L extends string>(values: Values<L>) =>
    function (this: { reset(): void; inc(labels: Partial<Record<L, string>>, value: number): void }) {
      const m = current();
      this.reset();
      if (m) for (const [labels, value] of values(m)) this.inc(labels, value);
    };
  const counter = <L extends string>(name: string, help: string, labelNames: L[], values: Values<L>) => new Counter({ name, help, labelNames, registers, collect: collect(values) });
  const gauge = <L extends string>(name: string, help: string, labelNames: L[], values: Values<L>) => new Gauge({ name, help, labelNames, registers, collect: collect(values) });

  counter("process_cpu_seconds_total", "CPU time of the whole process (every thread), user and system.", [], (m) => [[{}, m.cpuUs / 1e6]]);
  gauge("process_resident_memory_bytes", "Resident memory of the process.", [], (m) => [[{}, m.rssBytes]]);
  gauge("nodejs_heap_size_used_bytes", "V8 heap in use.", [], (m) => [[{}, m.heapUsedBytes]]);
  gauge("process_start_time_seconds", "When the process started, Unix time.", [], (m) => [[{}, Math.round(Date.parse(m.at) / 1000 - m.uptimeSec)]]);

  counter("mushroom_gateway_messages_total", "Device messages the gateway took, by kind.", ["kind"], ({ gateway: g }) => [
    [{ kind: "telemetry" }, g.telemetry],
    [{ kind: "status" }, g.statuses],
    [{ kind: "ack" }, g.acks],
  ]);
  counter("mushroom_gateway_dropped_total", "Device messages the gateway dropped, by reason.", ["reason"], ({ gateway: g }) => [
    [{ reason: "invalid" }, g.dropped.invalid],
    [{ reason: "too_large" }, g.dropped.tooLarge],
    [{ reason: "unknown_device" }, g.dropped.unknownDevice],
    [{ reason: "over_budget" }, g.dropped.overBudget],
  ]);
  counter("mushroom_devices_cut_off_total", "Times a device was cut off for sending over its message budget.", [], (m) => [[{}, m.gateway.cutOff.total]]);
  gauge("mushroom_devices_cut_off", "Devices cut off for sending over their message budget now.", [], (m) => [[{}, m.gateway.cutOff.now]]);
  gauge("mushroom_gateway_unacknowledged", "QoS 1 telemetry taken but not yet acknowledged to an external broker.", [], (m) => (m.gateway.sessions ? [[{}, m.gateway.sessions.unacknowledged]] : []));
  counter("mushroom_gateway_sessions_taken_over_total", "Dead nodes' broker sessions this node took over.", [], (m) => (m.gateway.sessions ? [[{}, m.gateway.sessions.takenOver]] : []));
  counter("mushroom_gateway_resent_skipped_total", "Telemetry sent again after a node died, skipped as already delivered.", [], (m) => (m.gateway.sessions ? [[{}, m.gateway.sessions.resentSkipped]] : []));
  gauge("mushroom_devices_connected", "Devices connected to the embedded broker.", [], (m) => (m.devicesConnected === null ? [] : [[{}, m.devicesConnected]]));

  gauge("mushroom_sockets_connected", "Open app sockets.", [], (m) => [[{}, m.sockets.connected]]);
  counter("mushroom_socket_events_dropped_total", "Socket events dropped.", [], (m) => [[{}, m.sockets.droppedEvents]]);
  counter("mushroom_socket_frames_shed_total", "Frames of readings skipped for a socket that could not keep up.", [], (m) => [[{}, m.sockets.shedFrames]]);

  counter("mushroom_history_rows_written_total", "Reading history rows written, by kind.", ["kind"], ({ history: h }) => [
    [{ kind: "minute" }, h.minuteRowsWritten],
    [{ kind: "late_minute" }, h.lateMinuteRows],
    [{ kind: "state_event" }, h.stateEventsWritten],
    [{ kind: "automation" }, h.automationLogged],
    [{ kind: "command" }, h.commandRowsWritten],
  ]);
  counter("mushroom_history_rows_dropped_total", "Reading history rows left out, by reason.", ["reason"], ({ history: h }) => [
    [{ reason: "past_retention" }, h.droppedPastRetention],
    [{ reason: "overflow" }, h.droppedOverflow],
  ]);
  counter("mushroom_history_write_errors_total", "Reading history writes and job steps that failed.", [], (m) => [[{}, m.history.writeErrors]]);
  gauge("mushroom_history_pending", "What waits in memory for reading history's next write, by kind.", ["kind"], ({ history: h }) => [
    [{ kind: "minute_rows" }, h.pending.minuteRows],
    [{ kind: "state_changes" }, h.pending.stateChanges],
    [{ kind: "command_rows" }, h.pending.commandRows],
    [{ kind: "hours_to_rebuild" }, h.pending.hoursToRebuild],
  ]);
  counter("mushroom_history_partitions_total", "History partitions the job created or dropped.", ["action"], ({ history: h }) => [
    [{ action: "created" }, h.maintenance.partitionsCreated],
    [{ action: "dropped" }, h.maintenance.partitionsDropped],
  ]);
  counter("mushroom_history_commands_abandoned_total", "Pending commands the history job gave up on.", [], (m) => [[{}, m.history.maintenance.commandsAbandoned]]);
  gauge("mushroom_history_job_last_run_timestamp_seconds", "When the history job last finished, Unix time.", [], (m) =>
    m.history.maintenance.lastRunAt ? [[{}, Date.parse(m.history.maintenance.lastRunAt) / 1000]] : [],
  );
  gauge("mushroom_history_job_last_run_errors", "Errors of the history job's last run.", [], (m) => [[{}, m.history.maintenance.lastRunErrors]]);
}

/** The node's own counters (the route adds the event loop and request times, which it samples itself). */
export function createNodeMetrics(parts: {
  gateway: { stats(): GatewayStats };
  devicesConnected?: () => number;
  sockets: () => NodeMetrics["sockets"];
  history: { stats(): HistoryStats };
}): { read(): NodeMetrics } {
  const read = (): NodeMetrics => {
    const cpu = process.cpuUsage();
    const mem = process.memoryUsage();
    return {
      at: new Date().toISOString(),
      pid: process.pid,
      uptimeSec: +process.uptime().toFixed(1),
      cpuUs: cpu.user + cpu.system,
      rssBytes: mem.rss,
      heapUsedBytes: mem.heapUsed,
      gateway: parts.gateway.stats(),
      devicesConnected: parts.devicesConnected?.() ?? null,
      sockets: parts.sockets(),
      history: parts.history.stats(),
    };
  };
  return { read };
}
