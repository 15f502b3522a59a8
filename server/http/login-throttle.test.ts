import type { LightMyRequestResponse } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { sweepLoginRecords } from "../auth/login-guard.ts";
import { createPasswordHasher } from "../auth/password.ts";
import { AppError } from "../errors.ts";
import { createTestServer, type TestServer } from "../test-support/test-server.ts";

/** The cookie `name` a response set, as a request's cookie header part. */
function setCookie(res: LightMyRequestResponse, name: string): string | undefined {
  const header = res.headers["set-cookie"];
  return (Array.isArray(header) ? header : [header]).find((c) => c?.startsWith(`${name}=`))?.split(";")[0];
}

describe("sign-in throttling", () => {
  let server: TestServer;
  afterEach(() => server.close());

  const login = (username: string, password: string, from: string, cookie?: string) =>
    server.app.inject({ method: "POST", url: "/api/clients/login", remoteAddress: from, headers: cookie ? { cookie } : {}, payload: { username, password } });

  it("locks a username after 5 failures in a row, for longer each time, but lets its owner's known browser in", async () => {
    // Many addresses (a botnet): the per-address limit does not come into it.
    server = await createTestServer({ config: { loginGuard: { perAddressPerMinute: 100_000 } } });
    const owner = await server.signUp();
    const { username, password } = owner.registration;
    // The owner's browser signed in before: it holds the known-browser cookie.
    const known = setCookie(await login(username, password, "192.0.2.1"), "known");
    expect(known).toMatch(/^known=[A-Za-z0-9_-]{43}$/);

    const answers: number[] = [];
    for (let i = 0; i < 300; i++) answers.push((await login(username, `wrong-${i}`, `198.51.100.${i % 250}`)).statusCode);
    expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.slice(5).every((s) => s === 429)).toBe(true);

    const locked = await login(username, password, "203.0.113.9");
    expect(locked.statusCode).toBe(429);
    expect(locked.headers["retry-after"]).toBe("30");
    expect(locked.json()).toEqual({ code: "RATE_LIMITED", message: "Too many failed sign-in attempts for this account. Try again in 30 seconds.", reason: "too_many_sign_in_failures", params: { retry_seconds: 30 } });

    // The owner, from the browser that signed in before, gets in during the lock.
    const fromKnown = await login(username, password, "192.0.2.77", known);
    expect(fromKnown.statusCode).toBe(200);
    expect(setCookie(fromKnown, "sid")).toBeDefined();

    // That success cleared the count; five more failures lock again, and a sixth after the lock doubles it.
    for (let i = 0; i < 5; i++) expect((await login(username, "wrong-password", "198.51.100.1")).statusCode).toBe(401);
    expect((await login(username, password, "203.0.113.9")).statusCode).toBe(429);
    server.clock.advance(30_001);
    expect((await login(username, "wrong-password", "198.51.100.1")).statusCode).toBe(401);
    const longer = await login(username, password, "203.0.113.9");
    expect(longer.headers["retry-after"]).toBe("60");
    expect(longer.json().message).toBe("Too many failed sign-in attempts for this account. Try again in 1 minute.");

    // Once the lock has run out, the right password works from anywhere.
    server.clock.advance(60_001);
    expect((await login(username, password, "203.0.113.9")).statusCode).toBe(200);
  });

  it("forgets a username's failures after a quiet day, but not while it is locked, and browsers unused for a year", async () => {
    // A first lock of two days: still on when the quiet day has passed.
    server = await createTestServer({ config: { loginGuard: { perAddressPerMinute: 100_000, firstLockMs: 2 * 24 * 3600_000, maxLockMs: 3 * 24 * 3600_000 } } });
    const owner = await server.signUp();
    const rows = async (table: string) => (await server.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;
    const sweep = () => sweepLoginRecords(server.db, new Date(server.clock.now));
    for (let i = 0; i < 3; i++) await login("someone_quiet", "wrong-password", "198.51.100.3");
    for (let i = 0; i < 5; i++) await login("someone_locked_long", "wrong-password", "198.51.100.4");
    expect(await rows("login_failures")).toBe(2);
    expect(await rows("known_devices")).toBe(1); // the owner's sign-in of signUp
    server.clock.advance(25 * 3600_000);
    await sweep();
    expect(await rows("login_failures")).toBe(1); // the locked one stays until its lock has passed
    expect((await login("someone_locked_long", "wrong-password", "198.51.100.4")).statusCode).toBe(429);
    server.clock.advance(366 * 24 * 3600_000);
    await sweep();
    expect(await rows("login_failures")).toBe(0);
    expect(await rows("known_devices")).toBe(0);
    expect((await login(owner.registration.username, owner.registration.password, "198.51.100.5")).statusCode).toBe(200);
  });

  it("answers an unknown username as it answers an account: the lock maps nothing", async () => {
    server = await createTestServer({ config: { loginGuard: { perAddressPerMinute: 100_000 } } });
    const owner = await server.signUp();
    const run = async (username: string) => {
      const out: string[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await login(username, "wrong", "198.51.100.7");
        out.push(`${res.statusCode} ${res.json().message} ${res.headers["retry-after"] ?? ""}`);
      }
      return out;
    };
    expect(await run("nobody_at_all")).toEqual(await run(owner.registration.username));
  });

  it("limits each address to 20 attempts a minute, and another address still signs in during a flood", async () => {
    server = await createTestServer({ config: { loginGuard: { perAddressPerMinute: 20 } } });
    const owner = await server.signUp();
    // A flood of anonymous bad sign-ins from one address, many at once.
    const flood = await Promise.all(Array.from({ length: 400 }, (_, i) => login(`stranger${i}`, "guess", "198.51.100.66")));
    const refused = flood.filter((r) => r.statusCode === 429);
    expect(flood.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(20);
    expect(refused.length).toBeGreaterThanOrEqual(380);
    expect(Number(refused[0]!.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused[0]!.json()).toMatchObject({ code: "RATE_LIMITED" });
    expect(refused[0]!.json().message).toMatch(/^Too many attempts from your network\. Try again in (\d+ seconds?|1 minute)\.$/);
    // The owner, elsewhere, is not held up by it.
    const during = await Promise.all([
      ...Array.from({ length: 50 }, (_, i) => login(`stranger${i}`, "guess", "198.51.100.66")),
      login(owner.registration.username, owner.registration.password, "192.0.2.10"),
    ]);
    expect(during.at(-1)!.statusCode).toBe(200);
  });
});

describe("the password hashing queue", () => {
  it("serves waiting sources in turn and refuses a source's fifth waiting hash, not another source's first", async () => {
    const hasher = createPasswordHasher({ log2N: 10, concurrency: 1, maxWaiting: 64, maxWaitingPerSource: 4 });
    const stored = await hasher.hash("spores");
    const order: string[] = [];
    const verify = (source: string, tag: string) => hasher.verify("spores", stored, source).then(() => order.push(tag));
    const first = verify("a", "a0"); // runs at once
    const flood = [1, 2, 3, 4].map((i) => verify("a", `a${i}`)); // wait
    await expect(hasher.verify("spores", stored, "a")).rejects.toBeInstanceOf(AppError); // a fifth waiting from "a"
    const other = verify("b", "b1"); // another source still queues
    await Promise.all([first, ...flood, other]);
    // "b" went second, not behind all of "a"'s.
    expect(order.indexOf("b1")).toBeLessThanOrEqual(2);
    expect(order).toHaveLength(6);
  });
});

describe.skipIf(!process.env.REDIS_URL)("per-address limits shared through Redis (REDIS_URL)", () => {
  it("counts an address's attempts on two servers against one budget", async () => {
    const { Redis } = await import("ioredis");
    const redis = new Redis(process.env.REDIS_URL!, { connectTimeout: 1_000, maxRetriesPerRequest: 1, keyPrefix: `test-${process.pid}-${Date.now()}:` });
    const config = { loginGuard: { perAddressPerMinute: 10 }, rateLimitRedis: redis };
    const a = await createTestServer({ config });
    const b = await createTestServer({ config });
    try {
      const login = (s: TestServer, i: number) =>
        s.app.inject({ method: "POST", url: "/api/clients/login", remoteAddress: "198.51.100.200", payload: { username: `stranger${i}`, password: "a-wrong-guess" } });
      const statuses: number[] = [];
      for (let i = 0; i < 16; i++) statuses.push((await login(i % 2 ? b : a, i)).statusCode);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual(Array(6).fill(429));
    } finally {
      await a.close();
      await b.close();
      redis.disconnect();
    }
  });
});

if (process.env.CI && !process.env.REDIS_URL) throw new Error("CI must provide a Redis (REDIS_URL) for the shared sign-in limits");
