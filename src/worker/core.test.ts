import type { io } from "socket.io-client";
import { describe, expect, it } from "vitest";
import { CoreError } from "../contract/core-error.ts";
import type { Notification } from "../contract/entities.ts";
import { SOCKET_EVENTS } from "../contract/realtime.ts";
import { createDataCore, type CoreUpdate } from "./core.ts";
import { SessionEndedError, type SessionEnded } from "../contract/session-ended.ts";

type Handler = (...args: unknown[]) => void;

/** A socket.io client socket that only records: the test plays the server. */
function fakeSocket() {
  const handlers = new Map<string, Handler[]>();
  const socket = {
    connected: false,
    connects: 0,
    closed: false,
    emitted: [] as { event: string; args: unknown[] }[],
    on(event: string, fn: Handler) {
      handlers.set(event, [...(handlers.get(event) ?? []), fn]);
      return socket;
    },
    emit(event: string, ...args: unknown[]) {
      socket.emitted.push({ event, args });
      return socket;
    },
    connect() {
      socket.connects++;
      return socket;
    },
    close() {
      socket.closed = true;
      socket.connected = false;
      return socket;
    },
    /** The server's side: fires an event at the client. */
    serve(event: string, ...args: unknown[]) {
      for (const fn of handlers.get(event) ?? []) fn(...args);
    },
  };
  return socket;
}

type Answer = { status: number; body?: unknown };
const json = ({ status, body }: Answer) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

const ENDED = { code: "UNAUTHENTICATED", message: "Your session has ended. Please sign in again." };
const note = (id: number, read = false): Notification => ({ notification_id: id, type: "wash", title: `Note ${id}`, body: "", read_status: read, createdAt: "2026-11-23T10:00:00.000Z" });

/**
 * A started core (client 7) whose fetch answers by "METHOD path" from `routes` (a function of the
 * request's body when it needs one), and a fake socket; everything it reports is recorded.
 */
function createDeps(routes: Record<string, Answer | ((body: unknown) => Answer)> = {}) {
  const requests: { key: string; body: unknown }[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? "GET"} ${String(input)}`;
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    requests.push({ key, body });
    const route = routes[key];
    if (!route) return json({ status: 404, body: { code: "NOT_FOUND", message: `No route ${key}` } });
    return json(typeof route === "function" ? route(body) : route);
  }) as typeof globalThis.fetch;
  const socket = fakeSocket();
  const core = createDataCore({ fetch, connect: (() => socket) as unknown as typeof io });
  const ended: SessionEnded[] = [];
  const updates: CoreUpdate[] = [];
  core.subscribe((u) => updates.push(u));
  core.onSessionEnded((e) => ended.push(e));
  core.start(7);
  return { core, socket, ended, updates, requests };
}

describe("the data core reports an ended session once", () => {
  it("reports one session end when three loads answer 401 UNAUTHENTICATED, and stops", async () => {
    const { core, socket, ended } = createDeps({
      "GET /api/farms/myfarms/get?client_id=7": { status: 401, body: ENDED },
      "GET /api/mcus/by-client/7": { status: 401, body: ENDED },
      "GET /api/setting-profiles/7": { status: 401, body: ENDED },
    });
    const results = await Promise.allSettled([core.loadFarms(), core.loadMcus(), core.loadProfiles()]);

    expect(ended).toEqual([{ clientId: 7, cause: "api" }]);
    for (const r of results) expect(r.status === "rejected" && r.reason).toBeInstanceOf(SessionEndedError);
    expect(socket.closed).toBe(true);
    // A screen that loads after the end learns the same, without a second report.
    await expect(core.loadFarms()).rejects.toBeInstanceOf(SessionEndedError);
    expect(ended).toHaveLength(1);
  });

  it("takes a bare 401 (no error body, e.g. from a proxy) for an ended session", async () => {
    const { core, ended } = createDeps({ "GET /api/sensors": { status: 401 } });
    await expect(core.loadSensors()).rejects.toBeInstanceOf(SessionEndedError);
    expect(ended).toEqual([{ clientId: 7, cause: "api" }]);
  });

  it("does not take refused credentials at login for an ended session", async () => {
    const { core, ended } = createDeps({
      "POST /api/clients/login": { status: 401, body: { code: "INVALID_CREDENTIALS", message: "Wrong username or password" } },
    });
    const failure = await core.login("demo", "not-the-password").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CoreError);
    expect(failure).not.toBeInstanceOf(SessionEndedError);
    expect((failure as CoreError).code).toBe("INVALID_CREDENTIALS");
    expect(ended).toEqual([]);
  });

  it("does not report a 401 while no client is started (signed out, or asking whether one is)", async () => {
    const { core, ended } = createDeps({ "GET /api/clients/me": { status: 401, body: ENDED }, "GET /api/sensors": { status: 401, body: ENDED } });
    core.stop();
    await expect(core.me()).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    const failure = await core.loadSensors().catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "UNAUTHENTICATED" });
    expect(failure).not.toBeInstanceOf(SessionEndedError);
    expect(ended).toEqual([]);
  });

  it("does not report other failures (403, 500) as a session end", async () => {
    const { core, ended } = createDeps({
      "GET /api/farms/myfarms/get?client_id=7": { status: 403, body: { code: "FORBIDDEN", message: "Not yours" } },
      "GET /api/mcus/by-client/7": { status: 500, body: { code: "INTERNAL", message: "Something went wrong" } },
    });
    await expect(core.loadFarms()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(core.loadMcus()).rejects.toMatchObject({ code: "INTERNAL" });
    expect(ended).toEqual([]);
  });

  it("reports the socket's refusal at the handshake once, and does not retry it", () => {
    const { socket, ended, updates } = createDeps();
    socket.serve("connect_error", new Error("unauthorized"));
    socket.serve("connect_error", new Error("unauthorized"));
    expect(ended).toEqual([{ clientId: 7, cause: "socket" }]);
    expect(socket.closed).toBe(true);
    expect(updates.filter((u) => u.kind === "connection").map((u) => u.kind === "connection" && u.state)).not.toContain("unauthorized");
  });

  it("reports the server's unauthorized event (the socket belongs to another account)", () => {
    const { socket, ended } = createDeps();
    socket.serve(SOCKET_EVENTS.unauthorized, { message: "This connection belongs to another account" });
    expect(ended).toEqual([{ clientId: 7, cause: "socket" }]);
  });

  it("connects again after the server ends the socket, and lets the handshake judge the session", () => {
    const { socket, ended } = createDeps();
    socket.serve("disconnect", "io server disconnect");
    expect(socket.connects).toBe(1);
    expect(ended).toEqual([]);
    socket.serve("connect_error", new Error("unauthorized"));
    expect(ended).toEqual([{ clientId: 7, cause: "socket" }]);
  });

  it("reports a new session's end again after the next start", async () => {
    const { core, ended } = createDeps({ "GET /api/sensors": { status: 401, body: ENDED } });
    await core.loadSensors().catch(() => undefined);
    core.start(7);
    await core.loadSensors().catch(() => undefined);
    expect(ended).toEqual([
      { clientId: 7, cause: "api" },
      { clientId: 7, cause: "api" },
    ]);
  });
});

describe("marking notifications read", () => {
  it("marks the shown unread notifications read at once and on the server, by id", async () => {
    const { core, requests, updates } = createDeps({
      "GET /notifications/7": { status: 200, body: [note(3), note(2, true), note(1)] },
      "PUT /notifications/7/read": (body) => ({ status: 200, body: { updated: (body as { notification_ids: number[] }).notification_ids.length } }),
    });
    await core.loadNotifications();
    await core.markNotificationsRead([3, 2, 1]);

    expect(requests.filter((r) => r.key === "PUT /notifications/7/read").map((r) => r.body)).toEqual([{ notification_ids: [3, 1] }]);
    const last = updates.filter((u) => u.kind === "entities" && u.entities.notifications).at(-1);
    expect(last?.kind === "entities" && last.entities.notifications?.map((n) => [n.notification_id, n.read_status])).toEqual([
      [3, true],
      [2, true],
      [1, true],
    ]);
  });

  it("leaves a notification that arrived after the panel opened unread", async () => {
    const { core, socket, updates } = createDeps({
      "GET /notifications/7": { status: 200, body: [note(1)] },
      "PUT /notifications/7/read": { status: 200, body: { updated: 1 } },
    });
    await core.loadNotifications();
    socket.serve(SOCKET_EVENTS.notification, note(2));
    await core.markNotificationsRead([1]);
    const last = updates.filter((u) => u.kind === "entities" && u.entities.notifications).at(-1);
    expect(last?.kind === "entities" && last.entities.notifications?.map((n) => [n.notification_id, n.read_status])).toEqual([
      [2, false],
      [1, true],
    ]);
  });

  it("sends nothing when everything shown is read already", async () => {
    const { core, requests } = createDeps({ "GET /notifications/7": { status: 200, body: [note(1, true)] } });
    await core.loadNotifications();
    await core.markNotificationsRead([1]);
    expect(requests.some((r) => r.key.startsWith("PUT"))).toBe(false);
  });

  it("sends at most 500 ids per request", async () => {
    const many = Array.from({ length: 501 }, (_, i) => note(i + 1));
    const { core, requests } = createDeps({
      "GET /notifications/7": { status: 200, body: many },
      "PUT /notifications/7/read": (body) => ({ status: 200, body: { updated: (body as { notification_ids: number[] }).notification_ids.length } }),
    });
    await core.loadNotifications();
    await core.markNotificationsRead(many.map((n) => n.notification_id));
    expect(requests.filter((r) => r.key.startsWith("PUT")).map((r) => (r.body as { notification_ids: number[] }).notification_ids.length)).toEqual([500, 1]);
  });
});
