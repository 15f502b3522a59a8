import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import { Registry, type Histogram } from "prom-client";
import { durationHistogram, quantileMs, registerNodeMetrics, sampleLoopDelay, snapshotOf, type NodeMetrics } from "../../metrics.ts";

export interface MetricsOptions {
  /** A bearer token every read must carry (METRICS_TOKEN). */
  token?: string;
  /**
   * Serve the metrics on a listener of their own on 127.0.0.1 (METRICS_PORT; 0: any free port):
   * `GET /metrics` and `GET /api/metrics` there, and no `/api/metrics` on the main port at all.
   */
  port?: number;
  /** Told the metrics listener's address once it listens. */
  onListening?: (address: AddressInfo) => void;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * Headers a proxy adds when it passes a request on. A reverse proxy on this machine connects from
 * loopback: with any of these, the request came from elsewhere through it.
 */
const FORWARDING_HEADERS = ["forwarded", "via", "x-real-ip", "x-client-ip", "true-client-ip", "cf-connecting-ip", "fastly-client-ip", "x-cluster-client-ip", "x-original-forwarded-for"];
const forwarded = (headers: IncomingHttpHeaders) => FORWARDING_HEADERS.some((h) => headers[h] !== undefined) || Object.keys(headers).some((h) => h.startsWith("x-forwarded-"));

/** Prometheus' scrape asks for text/plain or OpenMetrics first; a browser, fetch or curl for HTML, JSON or anything. */
const wantsPrometheus = (format: string | undefined, accept: string | undefined) =>
  format === undefined ? /^\s*(text\/plain|application\/openmetrics-text)\b/i.test(accept ?? "") : format === "prometheus";

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the node measures of itself as it serves, for the metrics route to report. */
export interface ServedMetrics {
  registry: Registry;
  loopDelay: Histogram;
  requestTimes: Histogram;
  /** The longest event-loop delay seen, once the node listens. */
  loopMaxMs(): number;
}

declare module "fastify" {
  interface FastifyInstance {
    servedMetrics: ServedMetrics;
  }
}

/**
 * Starts measuring the node as it serves: request times of the API (every route, so this is
 * installed on the root before any route's scope) and the event loop's delay once it listens.
 */
export function installServedMetrics(app: FastifyInstance): void {
  const registry = new Registry();
  const loopDelay = durationHistogram(registry, "nodejs_eventloop_delay_seconds", "How much later than due a 10 ms timer ran: the event loop's delay.");
  const requestTimes = durationHistogram(registry, "mushroom_http_request_duration_seconds", "API requests (not the metrics), from arrival to the last byte handed to the socket.");
  // Sampled while the node serves: an app only built for a test's injected requests has no loop to watch.
  let loopSampler: ReturnType<typeof sampleLoopDelay> | undefined;
  app.addHook("onListen", async () => {
    loopSampler ??= sampleLoopDelay(loopDelay);
  });
  app.addHook("onResponse", async (req, reply) => {
    if (!req.url.startsWith("/api/") || req.url.split("?", 1)[0] === "/api/metrics") return;
    requestTimes.observe(reply.elapsedTime / 1000);
  });
  app.addHook("onClose", async () => loopSampler?.stop());
  app.decorate("servedMetrics", { registry, loopDelay, requestTimes, loopMaxMs: () => loopSampler?.maxMs() ?? 0 });
}

export interface MetricsRouteOptions extends MetricsOptions {
  /** The node's counters of the moment (server/metrics.ts). */
  read: () => NodeMetrics;
}

/**
 * A node's counters (server/metrics.ts) for whoever runs the machine: a monitoring agent, a
 * Prometheus scrape or `npm run bench`. Answered only to a connection from this machine (the
 * socket's own address) that no proxy passed on (no forwarding header), so it is not part of the
 * public API: from elsewhere it does not exist. Every figure is cumulative: a read changes
 * nothing another reader sees; a reader compares two of its reads (metricsWindow). Registered
 * once the parts it counts exist, after installServedMetrics.
 */
export const metricsRoutes: FastifyPluginAsync<MetricsRouteOptions> = async (app, options) => {
  const { registry, loopDelay, requestTimes, loopMaxMs } = app.servedMetrics;
  let scraped: NodeMetrics | undefined;
  registerNodeMetrics(registry, () => scraped);

  const expected = options.token === undefined ? undefined : createHash("sha256").update(options.token).digest();
  // Compared as digests of equal length, in constant time: how long a refusal takes tells nothing of the token.
  const authorized = (authorization: string | undefined) => {
    if (!expected) return true;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    return match !== null && timingSafeEqual(createHash("sha256").update(match[1]!).digest(), expected);
  };

  async function answer(o: { remoteAddress: string | undefined; headers: IncomingHttpHeaders; format: string | undefined; prometheus: boolean }): Promise<Answer | undefined> {
    const metrics = options.read;
    if (!LOOPBACK.test(o.remoteAddress ?? "") || forwarded(o.headers)) return undefined;
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
      status,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
      body: JSON.stringify(body),
    });
    if (!authorized(o.headers.authorization)) return json(401, { code: "UNAUTHENTICATED", message: "The metrics need their bearer token (METRICS_TOKEN)." }, { "www-authenticate": 'Bearer realm="metrics"' });
    if (o.format !== undefined && o.format !== "json" && o.format !== "prometheus") return json(400, { code: "VALIDATION", message: "format must be json or prometheus" });
    if (o.prometheus) {
      scraped = metrics();
      const body = await registry.metrics();
      return { status: 200, headers: { "content-type": registry.contentType, "cache-control": "no-store" }, body };
    }
    const [loop, http] = await Promise.all([snapshotOf(loopDelay), snapshotOf(requestTimes)]);
    const body: NodeMetrics = {
      ...metrics(),
      loop: { ...loop, p50Ms: quantileMs(loop, 0.5) ?? 0, p99Ms: quantileMs(loop, 0.99) ?? 0, maxMs: loopMaxMs() },
      http: { ...http, requests: http.count, p50Ms: quantileMs(http, 0.5), p99Ms: quantileMs(http, 0.99) },
    };
    return json(200, body);
  }

  let listener: Server | undefined;
  if (options.port === undefined) {
    app.get<{ Querystring: { format?: string } }>("/api/metrics", async (req, reply) => {
      const format = typeof req.query.format === "string" ? req.query.format : undefined;
      const a = await answer({ remoteAddress: req.socket.remoteAddress, headers: req.headers, format, prometheus: wantsPrometheus(format, req.headers.accept) });
      if (!a) return reply.callNotFound();
      return reply.code(a.status).headers(a.headers).send(a.body);
    });
  } else {
    const port = options.port;
    listener = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://metrics");
      const format = url.searchParams.get("format") ?? undefined;
      const path = url.pathname;
      const done = (a: Answer | undefined) => {
        const out = a ?? { status: 404, headers: { "content-type": "text/plain; charset=utf-8" }, body: "Not found\n" };
        res.writeHead(out.status, out.headers).end(out.body);
      };
      if (req.method !== "GET" || (path !== "/metrics" && path !== "/api/metrics")) return done(undefined);
      // `/metrics` is Prometheus' path: its text unless JSON is asked for.
      const prometheus = path === "/metrics" ? format !== "json" : wantsPrometheus(format, req.headers.accept);
      answer({ remoteAddress: req.socket.remoteAddress, headers: req.headers, format, prometheus }).then(done, (err: Error) => {
        app.log.error({ err }, "metrics listener");
        done({ status: 500, headers: { "content-type": "text/plain; charset=utf-8" }, body: "Internal error\n" });
      });
    });
    // With the app: a metrics port that is taken stops the start rather than leaving the node unwatched.
    app.addHook("onReady", async () => {
      await new Promise<void>((resolve, reject) => {
        listener!.once("error", reject);
        listener!.listen({ host: "127.0.0.1", port }, () => {
          listener!.off("error", reject);
          options.onListening?.(listener!.address() as AddressInfo);
          resolve();
        });
      });
    });
  }
  app.addHook("onClose", async () => {
    if (listener?.listening) {
      listener.closeAllConnections();
      await new Promise((resolve) => listener!.close(resolve));
    }
  });
};
