import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSessionId, DEFAULT_SESSION } from "./session.ts";
import { cookieOf, createTestServer, requester, type TestServer } from "../test-support/test-server.ts";

const DAY = 24 * 3600_000;

describe("sessions", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  async function login(username: string, password: string, cookie?: string) {
    return server.app.inject({
      method: "POST",
      url: "/api/clients/login",
      headers: cookie ? { cookie } : {},
      payload: { username, password },
    });
  }

  it("sets an httpOnly, SameSite=Lax, site-wide cookie that lasts the absolute lifetime", async () => {
    const c = await server.signUp();
    const res = await login(c.registration.username, c.registration.password);
    const header = String(res.headers["set-cookie"]);
    expect(header).toMatch(/^sid=[A-Za-z0-9_-]{43};/);
    expect(header).toContain("HttpOnly");
    expect(header).toContain("SameSite=Lax");
    expect(header).toContain("Path=/");
    expect(header).toContain(`Max-Age=${DEFAULT_SESSION.absoluteMs / 1000}`);
    expect(header).not.toContain("Secure");
  });

  it("marks the cookie Secure when the server is configured for HTTPS", async () => {
    const secure = await createTestServer({ config: { session: { ...DEFAULT_SESSION, secure: true } } });
    try {
      const c = await secure.signUp();
      const res = await secure.app.inject({ method: "POST", url: "/api/clients/login", payload: { username: c.registration.username, password: c.registration.password } });
      expect(String(res.headers["set-cookie"])).toContain("Secure");
    } finally {
      await secure.close();
    }
  });

  it("stores only a hash of the session id", async () => {
    const c = await server.signUp();
    const id = c.cookie.slice("sid=".length);
    const rows = await server.db.query<{ id_hash: string }>("select id_hash from sessions where client_id = $1", [c.clientId]);
    expect(rows.map((r) => r.id_hash)).toContain(hashSessionId(id));
    expect(rows.map((r) => r.id_hash)).not.toContain(id);
  });

  it("checks a session without a query for a second, and refuses one ended elsewhere after that second", async () => {
    const c = await server.signUp();
    expect((await c.get("/api/clients/me")).statusCode).toBe(200);
    // Another server node signs this session out: its row goes, this node's copy stays trusted a moment.
    await server.db.query("delete from sessions where client_id = $1", [c.clientId]);
    const soon = await c.get("/api/clients/me");
    expect([200, 401]).toContain(soon.statusCode);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await c.get("/api/clients/me")).statusCode).toBe(401);
  });

  it("rotates the session id at each login and ends the previous session", async () => {
    const c = await server.signUp();
    const again = await login(c.registration.username, c.registration.password, c.cookie);
    const next = cookieOf(again);
    expect(next).not.toBe(c.cookie);
    expect((await c.get("/api/clients/me")).statusCode).toBe(401);
    expect((await requester(server.app, next).get("/api/clients/me")).statusCode).toBe(200);
  });

  it("stops accepting the old cookie after logout and clears it", async () => {
    const c = await server.signUp();
    const out = await c.post("/api/clients/logout", {});
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: "Signed out" });
    expect(String(out.headers["set-cookie"])).toMatch(/^sid=;.*Expires=Thu, 01 Jan 1970/);
    const after = await c.get("/api/clients/me");
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe("UNAUTHENTICATED");
  });

  it("ends a session left idle for the idle lifetime", async () => {
    const c = await server.signUp();
    server.clock.advance(DEFAULT_SESSION.idleMs - 60_000);
    expect((await c.get("/api/clients/me")).statusCode).toBe(200);
    server.clock.advance(DEFAULT_SESSION.idleMs - 1000);
    expect((await c.get("/api/clients/me")).statusCode).toBe(200);
    server.clock.advance(DEFAULT_SESSION.idleMs);
    expect((await c.get("/api/clients/me")).statusCode).toBe(401);
  });

  it("ends a session at its absolute lifetime however active it is", async () => {
    const c = await server.signUp();
    for (let day = 1; day < DEFAULT_SESSION.absoluteMs / DAY; day++) {
      server.clock.advance(DAY);
      expect((await c.get("/api/clients/me")).statusCode, `day ${day}`).toBe(200);
    }
    server.clock.advance(DAY);
    expect((await c.get("/api/clients/me")).statusCode).toBe(401);
  });

  it("refuses a made-up cookie", async () => {
    const res = await requester(server.app, "sid=made-up-session-id").get("/api/clients/me");
    expect(res.statusCode).toBe(401);
  });

  it("signs out every other device when the password changes", async () => {
    const c = await server.signUp();
    const other = requester(server.app, cookieOf(await login(c.registration.username, c.registration.password)));
    expect((await other.get("/api/clients/me")).statusCode).toBe(200);
    const change = await c.put(`/api/clients/${c.clientId}`, { password: "another-password", confirm_password: "another-password" });
    expect(change.statusCode).toBe(200);
    expect((await other.get("/api/clients/me")).statusCode).toBe(401);
    expect((await c.get("/api/clients/me")).statusCode).toBe(200);
  });

  it("sweeps expired sessions from the table", async () => {
    const c = await server.signUp();
    server.clock.advance(DEFAULT_SESSION.absoluteMs + DAY);
    const { sessionsRepo } = await import("../db/sessions-repo.ts");
    const now = new Date(server.clock.now);
    const removed = await sessionsRepo(server.db).deleteExpired(now, new Date(now.getTime() - DEFAULT_SESSION.idleMs));
    expect(removed).toBeGreaterThan(0);
    const left = await server.db.query("select 1 from sessions where client_id = $1", [c.clientId]);
    expect(left).toHaveLength(0);
  });
});
