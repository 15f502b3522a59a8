import type { FastifyInstance } from "fastify";
import type { NodeMetrics } from "../../metrics.ts";
import type { RouteContext } from "../context.ts";

const MAX_TIMES = 10_000;
const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * A node's counters (server/metrics.ts) for whoever runs the machine: a monitoring agent or
 * `npm run bench`. Answered only to a connection from this machine (not a forwarded header: the
 * socket's own address), so it is not part of the public API: from elsewhere it does not exist.
 */
export function metricsRoutes(app: FastifyInstance, ctx: RouteContext): void {
  // How long this node took to answer each API request (from its arrival to the last byte handed
  // to the socket), kept until the metrics are next read.
  // (At most MAX_TIMES: past that, each new one replaces a random one.)
  let times: number[] = [];
  let count = 0;
  app.addHook("onResponse", async (req, reply) => {
    if (!req.url.startsWith("/api/") || req.url === "/api/metrics") return;
    count++;
    if (times.length < MAX_TIMES) times.push(reply.elapsedTime);
    else times[Math.floor(Math.random() * MAX_TIMES)] = reply.elapsedTime;
  });
  app.get("/api/metrics", async (req, reply) => {
    const metrics = ctx.events.metrics;
    if (!metrics || !LOOPBACK.test(req.socket.remoteAddress ?? "")) return reply.callNotFound();
    reply.header("cache-control", "no-store");
    const sorted = times.sort((a, b) => a - b);
    const at = (p: number) => (sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(2) : null);
    const http: NodeMetrics["http"] = { requests: count, p50Ms: at(0.5), p99Ms: at(0.99) };
    times = [];
    count = 0;
    return { ...metrics(), http };
  });
}
