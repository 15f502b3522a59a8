import type { FastifyInstance } from "fastify";
import type { RouteContext } from "../context.ts";

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * A node's counters (server/metrics.ts) for whoever runs the machine: a monitoring agent or
 * `npm run bench`. Answered only to a connection from this machine (not a forwarded header: the
 * socket's own address), so it is not part of the public API: from elsewhere it does not exist.
 */
export function metricsRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get("/api/metrics", async (req, reply) => {
    const metrics = ctx.events.metrics;
    if (!metrics || !LOOPBACK.test(req.socket.remoteAddress ?? "")) return reply.callNotFound();
    reply.header("cache-control", "no-store");
    return metrics();
  });
}
