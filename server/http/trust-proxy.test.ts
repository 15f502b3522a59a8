import { request } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startServer, type ServerProcess } from "../../tests/support/server-process.ts";
import { readConfig } from "../config.ts";
import { createTestServer, type TestServer } from "../test-support/test-server.ts";

/** A bad sign-in over a real connection, with whatever forwarding header a client sends. */
function badSignIn(base: string, i: number, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({ username: `nobody${i}`, password: "a-wrong-guess" });
  return new Promise((resolve, reject) => {
    request(`${base}/api/clients/login`, { method: "POST", headers: { "content-type": "application/json", ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    })
      .on("error", reject)
      .end(body);
  });
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe("a client's own X-Forwarded-For, with the server as `npm start` runs it behind an https origin", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    // The production limit of 20 sign-ins a minute per address; TRUST_PROXY unset.
    server = await startServer({ PUBLIC_ORIGIN: "https://farm.example.com", LOGIN_ATTEMPTS_PER_MINUTE: "20", DEMO: "0" });
  }, 90_000);
  afterAll(() => server?.stop());

  it("changes nothing: 40 bad sign-ins, each with a new forged address, count as the connection's own", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push(await badSignIn(server.url, i, { "x-forwarded-for": `203.0.113.${i + 1}` }));
    expect(count(statuses, 401)).toBe(20);
    expect(count(statuses, 429)).toBe(20);
  });
});

describe("TRUST_PROXY: the address the proxy appends is the client's", () => {
  let server: TestServer;
  afterEach(() => server.close());

  // The proxy on this machine passes each request on from loopback, the client's address appended.
  const viaProxy = (client: string, username: string, password: string, forged?: string) =>
    server.app.inject({
      method: "POST",
      url: "/api/clients/login",
      remoteAddress: "127.0.0.1",
      headers: { "x-forwarded-for": forged ? `${forged}, ${client}` : client },
      payload: { username, password },
    });

  for (const value of ["1", "127.0.0.1", "loopback,10.0.0.0/8"]) {
    it(`TRUST_PROXY=${value}: an attacker who used up their address's budget does not lock out another user behind the same proxy`, async () => {
      server = await createTestServer({ config: { trustProxy: readConfig({ TRUST_PROXY: value }).trustProxy, loginGuard: { perAddressPerMinute: 20 } } });
      const user = await server.signUp();
      const attacker: number[] = [];
      // A forged address of their own before the proxy's changes nothing: the proxy's last one counts.
      for (let i = 0; i < 30; i++) attacker.push((await viaProxy("198.51.100.66", `stranger${i}`, "a-wrong-guess", `203.0.113.${i + 1}`)).statusCode);
      expect(count(attacker, 401)).toBe(20);
      expect(count(attacker, 429)).toBe(10);
      expect((await viaProxy("192.0.2.10", user.registration.username, user.registration.password)).statusCode).toBe(200);
    });
  }

  it("TRUST_PROXY=127.0.0.1: a client connecting directly (not through the proxy) cannot choose its address", async () => {
    server = await createTestServer({ config: { trustProxy: readConfig({ TRUST_PROXY: "127.0.0.1" }).trustProxy, loginGuard: { perAddressPerMinute: 20 } } });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await server.app.inject({
        method: "POST",
        url: "/api/clients/login",
        remoteAddress: "198.51.100.77",
        headers: { "x-forwarded-for": `203.0.113.${i + 1}` },
        payload: { username: `stranger${i}`, password: "a-wrong-guess" },
      });
      statuses.push(res.statusCode);
    }
    expect(count(statuses, 429)).toBe(10);
  });
});
