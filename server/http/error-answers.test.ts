import { connect } from "node:net";
import fastifyRateLimit from "@fastify/rate-limit";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_REASONS } from "../../src/contract/error-reasons.ts";
import { createTestServer, type TestServer } from "../test-support/test-server.ts";
import { installErrorHandler, refuseWhileClosing } from "./errors.ts";

/** What a raw TCP client received before the server closed its connection. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (d) => (received += d.toString("latin1")));
    socket.once("close", () => resolve(received));
    socket.once("error", reject);
    socket.once("connect", () => socket.write(request));
  });
}

const json = { "content-type": "application/json" };

describe("the server's generic error answers name a reason the app translates", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it.each([
    ["a body that is not JSON", { method: "POST", url: "/api/clients/login", headers: json, payload: "{oops" }, 400, "BAD_REQUEST", "invalid_json", "The request body is not valid JSON"],
    ["an empty JSON body", { method: "POST", url: "/api/clients/login", headers: json, payload: "" }, 400, "BAD_REQUEST", "invalid_json", "The request body is not valid JSON"],
    ["a body poisoning the prototype", { method: "POST", url: "/api/clients/login", headers: json, payload: '{"__proto__": {"x": 1}}' }, 400, "BAD_REQUEST", "invalid_json", "The request body is not valid JSON"],
    ["a JSON array for a body", { method: "POST", url: "/api/clients/login", headers: json, payload: "[1]" }, 400, "BAD_REQUEST", "body_not_object", "The request body must be a JSON object"],
    ["a body nested too deeply", { method: "POST", url: "/api/clients/login", headers: json, payload: "[".repeat(40) + "]".repeat(40) }, 400, "BAD_REQUEST", "body_too_deep", "The request body is nested too deeply"],
    ["a body too large", { method: "POST", url: "/api/clients/login", headers: json, payload: JSON.stringify({ username: "x".repeat(70_000) }) }, 413, "PAYLOAD_TOO_LARGE", "body_too_large", "The request body is too large"],
    ["a form body", { method: "POST", url: "/api/clients/login", headers: { "content-type": "application/x-www-form-urlencoded" }, payload: "a=1" }, 415, "UNSUPPORTED_MEDIA_TYPE", "json_only", "Send the request body as application/json"],
    ["a request from a foreign origin", { method: "POST", url: "/api/clients/login", headers: { ...json, origin: "https://evil.example" }, payload: "{}" }, 403, "BAD_ORIGIN", "origin_not_allowed", "Requests from this origin are not allowed"],
    ["a path segment that cannot be decoded", { method: "GET", url: "/api/farms/%E0%A4%A" }, 400, "BAD_REQUEST", "bad_url", "The request's address is not valid"],
    ["a path segment too long", { method: "GET", url: `/api/farms/${"1".repeat(300)}` }, 400, "BAD_REQUEST", "bad_url", "The request's address is not valid"],
  ] as const)("%s", async (_what, request, status, code, reason, message) => {
    const res = await server.app.inject(request);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toEqual({ code, message, reason });
  });

  it("an endpoint it does not have, with the method and path it was asked", async () => {
    const res = await server.app.inject({ method: "DELETE", url: "/api/nothing?x=1" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: "NOT_FOUND", message: "No such endpoint: DELETE /api/nothing", reason: "no_such_endpoint", params: { method: "DELETE", path: "/api/nothing" } });
  });

  it("a field the schema words itself, and the answer as its first field", async () => {
    const res = await server.app.inject({ method: "POST", url: "/api/clients/login", headers: json, payload: JSON.stringify({ username: 5, password: "secret-password" }) });
    expect(res.statusCode).toBe(400);
    const body = res.json() as { reason: string; errors: { path: string; reason: string }[] };
    expect(body.reason).toBe("invalid_value");
    expect(body.errors).toEqual([expect.objectContaining({ path: "username", reason: "invalid_value" })]);
  });

  it("headers too large for Node, answered before Fastify sees the request", async () => {
    await server.app.listen({ host: "127.0.0.1", port: 0 });
    const port = (server.app.server.address() as { port: number }).port;
    const received = await rawExchange(port, `GET /api/clients/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"x".repeat(20_000)}\r\n\r\n`);
    expect(received).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(received.slice(received.indexOf("\r\n\r\n") + 4))).toEqual({ code: "PAYLOAD_TOO_LARGE", message: "The request headers are too large", reason: "headers_too_large" });
  });

  it("every reason it answers with is one the app knows", () => {
    for (const reason of ["invalid_json", "body_not_object", "body_too_deep", "body_too_large", "json_only", "origin_not_allowed", "bad_url", "no_such_endpoint", "invalid_value", "server_error", "server_stopping", "too_many_requests", "headers_too_large", "request_too_slow"]) {
      expect(ERROR_REASONS).toContain(reason);
    }
  });
});

describe("the error handler's answers to what a route did not foresee", () => {
  const app = Fastify({ return503OnClosing: false });
  let release: () => void = () => {};
  beforeAll(async () => {
    installErrorHandler(app);
    refuseWhileClosing(app);
    await app.register(fastifyRateLimit, { global: false });
    app.get("/boom", async () => {
      throw new Error("the database said something private");
    });
    app.get("/stored", async () => {
      throw Object.assign(new Error('value too long for type character varying(200)'), { code: "22001" });
    });
    app.get("/limited", { config: { rateLimit: { max: 1, timeWindow: 60_000 } } }, async () => ({ ok: true }));
    app.get("/slow", () => new Promise((resolve) => (release = () => resolve({ ok: true }))));
    await app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(() => app.close());

  it("a failure inside: a 500 that says nothing of it", async () => {
    const res = await app.inject({ method: "GET", url: "/boom" });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: "INTERNAL", message: "Something went wrong on the server. Please try again.", reason: "server_error" });
  });

  it("a value the database cannot store: a 400", async () => {
    const res = await app.inject({ method: "GET", url: "/stored" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: "BAD_REQUEST", message: "The request contains a value that cannot be stored", reason: "value_not_storable" });
  });

  it("a route's rate limit without words of its own: still a 429", async () => {
    expect((await app.inject({ method: "GET", url: "/limited" })).statusCode).toBe(200);
    const res = await app.inject({ method: "GET", url: "/limited" });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ code: "RATE_LIMITED", message: "Too many requests. Please slow down.", reason: "too_many_requests" });
  });

  it("a request that reaches the server while it shuts down: a 503, and the connection closes", async () => {
    const port = (app.server.address() as { port: number }).port;
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (d) => (received += d.toString("latin1")));
    const ended = new Promise((resolve) => socket.once("close", resolve));
    await new Promise((resolve) => socket.once("connect", resolve));
    // A request in flight keeps its connection open while the server closes; the next one on it comes after close began.
    socket.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
    await new Promise((r) => setTimeout(r, 100));
    const closed = app.close();
    await new Promise((r) => setTimeout(r, 50));
    socket.write("GET /limited HTTP/1.1\r\nHost: x\r\n\r\n");
    await new Promise((r) => setTimeout(r, 50));
    release();
    await ended;
    await closed;
    const second = received.slice(received.indexOf("HTTP/1.1", 1));
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(JSON.parse(second.slice(second.indexOf("\r\n\r\n") + 4))).toEqual({ code: "INTERNAL", message: "The server is shutting down", reason: "server_stopping" });
  });
});
