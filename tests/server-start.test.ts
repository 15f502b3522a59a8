import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright";
import { io } from "socket.io-client";
import { launchChromium } from "./support/browser.ts";
import { startServer, type ServerProcess } from "./support/server-process.ts";

/** What a new user does: start the server on a fresh data folder and open the app. */
describe("the started server", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "mf-e2e-"));
    server = await startServer({ DATA_DIR: dataDir });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("serves the built app at / and at every client route, guarded, with a not-found page", async () => {
    const page = await browser.newPage();
    for (const path of ["/", "/dashboard", "/mcu", "/settings-profile"]) {
      const res = await page.goto(server.url + path);
      expect(res?.status(), path).toBe(200);
      // Signed out, every client route goes to the Login screen (SPEC §2 route guarding).
      await page.waitForURL("**/login");
      await expect.poll(() => page.locator("h1").first().textContent()).toBe("Welcome Back");
      await expect.poll(() => page.title()).toMatch(/Mushroom Farm/);
    }
    await page.screenshot({ path: "test-results/server-start.png" });
    const missing = await page.goto(`${server.url}/no-such-page`);
    expect(missing?.status()).toBe(200);
    await expect.poll(() => page.locator("h1").first().textContent()).toBe("Page not found");
    await page.getByRole("link", { name: "Go to the dashboard" }).waitFor();
    await page.close();
  });

  it("keeps data across a graceful restart on the same DATA_DIR", async () => {
    const reg = {
      username: "restart_user",
      email: "restart@example.com",
      password: "mycelium-42",
      confirmPassword: "mycelium-42",
      mobile: "+1 555 0100",
      country: "US",
      address: "1 Spore St",
    };
    const json = { "content-type": "application/json" };
    expect((await fetch(`${server.url}/api/clients`, { method: "POST", headers: json, body: JSON.stringify(reg) })).status).toBe(201);

    expect(await server.stop()).toBe(0); // SIGTERM: closes cleanly, exit code 0
    server = await startServer({ DATA_DIR: dataDir });

    const login = await fetch(`${server.url}/api/clients/login`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ username: reg.email, password: reg.password }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as { client: { username: string } }).client.username).toBe("restart_user");
  });

  it("runs the demo farm: its 12 MCUs report live and a toggle reaches a simulated device", async () => {
    const json = { "content-type": "application/json" };
    const login = await fetch(`${server.url}/api/clients/login`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ username: "demo", password: "grow-mushrooms" }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const clientId = ((await login.json()) as { client: { client_id: number } }).client.client_id;
    const mcus = (await (await fetch(`${server.url}/api/mcus/by-client/${clientId}`, { headers: { cookie } })).json()) as { mac: string; name: string }[];
    expect(mcus).toHaveLength(12);
    const farms = (await (await fetch(`${server.url}/api/farms/myfarms/get?client_id=${clientId}`, { headers: { cookie } })).json()) as unknown[];
    expect(farms).toHaveLength(3);

    const socket = io(server.url, { transports: ["websocket"], extraHeaders: { cookie }, reconnection: false });
    try {
      const seen = new Set<string>();
      const humidifier = new Map<string, { status: boolean; auto: boolean }>();
      const note = (p: { deviceId: string; payload: { Humidifier?: { status: boolean; auto: boolean } } }) => {
        seen.add(p.deviceId);
        if (p.payload.Humidifier) humidifier.set(p.deviceId, p.payload.Humidifier);
      };
      socket.on("realtimeData", note);
      socket.on("realtimeBatch", (b: { data: Parameters<typeof note>[0][] }) => b.data.forEach(note));
      const authenticated = new Promise<{ devices: { deviceId: string; status: string }[] }>((resolve) => socket.once("authenticated", resolve));
      socket.on("connect", () => socket.emit("authenticateUser", clientId));
      expect((await authenticated).devices).toHaveLength(12);
      await expect.poll(() => seen.size, { timeout: 15_000 }).toBe(12);

      const mac = mcus[0]!.mac;
      const send = (type: "auto" | "status", onOff: boolean) =>
        new Promise((resolve) => socket.emit("sendCommand", { deviceId: mac, type, value: { type, onOff, target: "Humidifier" } }, resolve));
      expect(await send("auto", false)).toEqual({ ok: true });
      const wanted = !humidifier.get(mac)?.status;
      expect(await send("status", wanted)).toEqual({ ok: true });
      await expect.poll(() => humidifier.get(mac), { timeout: 10_000 }).toEqual({ status: wanted, auto: false });
    } finally {
      socket.close();
    }
  });

  it("refuses a state change from a foreign origin", async () => {
    const res = await fetch(`${server.url}/api/clients/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify({ username: "restart_user", password: "mycelium-42" }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe("Requests from this origin are not allowed");
  });
});
