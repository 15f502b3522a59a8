import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestNode } from "../test-support/test-node.ts";
import { freePort } from "../test-support/free-port.ts";
import { metricsWindow, type NodeMetrics } from "../metrics.ts";

/** A GET over a real connection from this machine (not an injected request): the socket's address is loopback. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), body }));
    })
      .on("error", reject)
      .end();
  });
}

describe("GET /api/metrics on the main port", () => {
  let node: Awaited<ReturnType<typeof startTestNode>>;
  beforeAll(async () => {
    node = await startTestNode();
  });
  afterAll(() => node?.close());

  it("answers a connection from this machine, but not one a proxy passed on (any forwarding header), even from loopback", async () => {
    const url = `${node.system.url}/api/metrics`;
    expect((await get(url)).status).toBe(200);
    const through = {
      forwarded: "for=198.51.100.7;proto=https",
      "x-forwarded-for": "198.51.100.7",
      "x-forwarded-host": "farm.example.com",
      "x-forwarded-proto": "https",
      "x-real-ip": "198.51.100.7",
      via: "1.1 proxy",
    };
    for (const [name, value] of Object.entries(through)) {
      const res = await get(url, { [name]: value });
      expect(res.status, name).toBe(404);
      expect(res.body, name).not.toContain("telemetry");
    }
  });

  it("keeps every figure cumulative: a second reader's read does not blank the first reader's window", async () => {
    const app = node.system.app;
    const metrics = async () => (await app.inject({ method: "GET", url: "/api/metrics" })).json() as NodeMetrics;
    const first = await metrics();
    for (let i = 0; i < 5; i++) await app.inject({ method: "GET", url: "/api/clients/me" });
    // Another reader (a monitoring agent) reads in between.
    const other = await metrics();
    for (let i = 0; i < 3; i++) await app.inject({ method: "GET", url: "/api/clients/me" });
    await new Promise((r) => setTimeout(r, 100));
    const second = await metrics();

    const window = metricsWindow(first, second);
    expect(window.http.requests).toBe(8);
    expect(window.http.p99Ms).not.toBeNull();
    expect(window.loop.samples).toBeGreaterThan(0);
    expect(metricsWindow(first, other).http.requests).toBe(5);
    expect(second.http!.requests).toBeGreaterThanOrEqual(first.http!.requests + 8);
    expect(second.loop!.count).toBeGreaterThan(other.loop!.count);
  });

  it("answers the Prometheus text format when asked (format=prometheus, or a scrape's Accept)", async () => {
    const scrape = await get(`${node.system.url}/api/metrics?format=prometheus`);
    expect(scrape.status).toBe(200);
    expect(scrape.type).toBe("text/plain; version=0.0.4; charset=utf-8");
    const byAccept = await get(`${node.system.url}/api/metrics`, { accept: "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1" });
    expect(byAccept.type).toBe(scrape.type);
    // Every line a comment (# HELP, # TYPE), a sample (name, labels, value), or blank between families.
    const lines = scrape.body.split("\n").filter((l) => l !== "");
    for (const line of lines) expect(line).toMatch(/^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+|[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="[^"]*",?)*\})? (-?[0-9.e+-]+|\+Inf|NaN))$/);
    expect(scrape.body).toContain("# TYPE mushroom_gateway_messages_total counter");
    expect(scrape.body).toMatch(/^mushroom_gateway_messages_total\{kind="telemetry"\} \d+$/m);
    // Messages dropped over a device's budget, and the devices cut off for it.
    expect(scrape.body).toMatch(/^mushroom_gateway_dropped_total\{reason="over_budget"\} \d+$/m);
    expect(scrape.body).toMatch(/^mushroom_devices_cut_off_total \d+$/m);
    expect(scrape.body).toContain("# TYPE nodejs_eventloop_delay_seconds histogram");
    expect(scrape.body).toMatch(/^nodejs_eventloop_delay_seconds_bucket\{le="\+Inf"\} [1-9]\d*$/m);
    expect(scrape.body).toMatch(/^mushroom_http_request_duration_seconds_count \d+$/m);
    expect(scrape.body).toMatch(/^process_resident_memory_bytes \d+$/m);
  });
});

describe("METRICS_PORT and METRICS_TOKEN", () => {
  const token = "a-metrics-token-of-some-length";
  let node: Awaited<ReturnType<typeof startTestNode>>;
  let metricsPort: number;
  beforeAll(async () => {
    metricsPort = await freePort();
    node = await startTestNode({ metrics: { port: metricsPort, token } });
  });
  afterAll(() => node?.close());

  it("serves the metrics on their own loopback listener only: the main port has no /api/metrics", async () => {
    const bearer = { authorization: `Bearer ${token}` };
    const text = await get(`http://127.0.0.1:${metricsPort}/metrics`, bearer);
    expect(text.status).toBe(200);
    expect(text.type).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(text.body).toContain("mushroom_gateway_messages_total");
    const json = await get(`http://127.0.0.1:${metricsPort}/api/metrics`, bearer);
    expect(json.status).toBe(200);
    expect(JSON.parse(json.body)).toMatchObject({ gateway: { telemetry: expect.any(Number) } });
    // Through a proxy on this machine: not there either.
    expect((await get(`http://127.0.0.1:${metricsPort}/metrics`, { ...bearer, "x-forwarded-for": "198.51.100.7" })).status).toBe(404);

    const main = await get(`${node.system.url}/api/metrics`, bearer);
    expect(main.status).toBe(404);
    expect(main.body).not.toContain("telemetry");
  });

  it("requires the bearer token", async () => {
    const url = `http://127.0.0.1:${metricsPort}/metrics`;
    const none = await get(url);
    expect(none.status).toBe(401);
    expect(none.body).not.toContain("mushroom_");
    expect((await get(url, { authorization: "Bearer a-metrics-token-of-some-lengtH" })).status).toBe(401);
    expect((await get(url, { authorization: `Basic ${Buffer.from(`x:${token}`).toString("base64")}` })).status).toBe(401);
    expect((await get(url, { authorization: `Bearer ${token}` })).status).toBe(200);
  });
});
