import { monitorEventLoopDelay } from "node:perf_hooks";
import type { GatewayStats } from "./devices/gateway.ts";
import type { HistoryStats } from "./history/history-writer.ts";

/** One server node's counters: what `GET /api/metrics` answers (to this machine only). */
export interface NodeMetrics {
  at: string;
  pid: number;
  uptimeSec: number;
  /** CPU time of the whole process (every thread: the database thread too), since it started. */
  cpuUs: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** Event-loop delay since the previous read of the metrics (or since the start). */
  loop: { p50Ms: number; p99Ms: number; maxMs: number };
  gateway: GatewayStats;
  devicesConnected: number | null;
  sockets: { connected: number; droppedEvents: number; shedFrames: number };
  /** Reading history's writes on this node since it started (server/history/history-writer.ts). */
  history: HistoryStats;
  /** API requests answered since the previous read, and how long this node took (null: none). */
  http?: { requests: number; p50Ms: number | null; p99Ms: number | null };
}

/** monitorEventLoopDelay samples every RESOLUTION ms and counts that interval in each value. */
const RESOLUTION = 10;

export function createNodeMetrics(parts: {
  gateway: { stats(): GatewayStats };
  devicesConnected?: () => number;
  sockets: () => NodeMetrics["sockets"];
  history: { stats(): HistoryStats };
}): { read(): NodeMetrics; close(): void } {
  const loop = monitorEventLoopDelay({ resolution: RESOLUTION });
  loop.enable();
  const ms = (ns: number) => +Math.max(0, ns / 1e6 - RESOLUTION).toFixed(2);
  const read = (): NodeMetrics => {
    const cpu = process.cpuUsage();
    const mem = process.memoryUsage();
    const m: NodeMetrics = {
      at: new Date().toISOString(),
      pid: process.pid,
      uptimeSec: +process.uptime().toFixed(1),
      cpuUs: cpu.user + cpu.system,
      rssBytes: mem.rss,
      heapUsedBytes: mem.heapUsed,
      loop: { p50Ms: ms(loop.percentile(50)), p99Ms: ms(loop.percentile(99)), maxMs: ms(loop.max) },
      gateway: parts.gateway.stats(),
      devicesConnected: parts.devicesConnected?.() ?? null,
      sockets: parts.sockets(),
      history: parts.history.stats(),
    };
    loop.reset();
    return m;
  };
  return { read, close: () => loop.disable() };
}
