import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, signedInClientId, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe("installable, offline-capable app", () => {
  let app: DemoApp;
  beforeAll(async () => {
    app = await startDemoApp();
  });
  afterAll(() => app?.stop());

  it("serves a valid web app manifest with icons in the sizes browsers ask for", async () => {
    const html = await (await fetch(`${app.url}/login`)).text();
    expect(html).toMatch(/<link rel="manifest" href="\/manifest\.webmanifest"/);
    const res = await fetch(`${app.url}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    const manifest = (await res.json()) as { name: string; short_name: string; start_url: string; display: string; theme_color: string; icons: { src: string; sizes: string; type: string; purpose: string }[] };
    expect(manifest).toMatchObject({ name: "Mushroom Farm", start_url: "/dashboard", display: "standalone", theme_color: "#14532d" });
    const pngs = manifest.icons.filter((i) => i.type === "image/png");
    expect(pngs.map((i) => i.sizes).sort()).toEqual(["192x192", "512x512", "512x512"]);
    expect(pngs.some((i) => i.purpose === "maskable")).toBe(true);
    for (const icon of pngs) {
      const bytes = new Uint8Array(await (await fetch(app.url + icon.src)).arrayBuffer());
      const [w, h] = icon.sizes.split("x").map(Number);
      expect(pngSize(bytes), icon.src).toEqual({ width: w, height: h });
    }
  });

  it("shows the install button only while the browser offers installation", async () => {
    const { page, context } = await app.newPage("laptop");
    await signIn(page);
    await page.getByRole("heading", { name: "Your Farms" }).waitFor();
    expect(await page.getByRole("button", { name: "Install App" }).count()).toBe(0);
    await page.evaluate(`(() => {
      const e = new Event("beforeinstallprompt", { cancelable: true });
      e.prompt = async () => {};
      e.userChoice = Promise.resolve({ outcome: "accepted" });
      window.dispatchEvent(e);
    })()`);
    await page.getByRole("button", { name: "Install App" }).click();
    await page.getByRole("button", { name: "Install App" }).waitFor({ state: "detached" });
    await context.close();
  });

  it("runs every screen's code under the CSP: no screen loads a library that compiles code at run time", async () => {
    const { page, context } = await app.newPage("laptop");
    await page.addInitScript({
      content: 'window.cspViolations = []; document.addEventListener("securitypolicyviolation", (e) => window.cspViolations.push(location.pathname + ": " + e.violatedDirective + " " + e.blockedURI));',
    });
    await signIn(page);
    await page.getByRole("heading", { name: "Your Farms" }).waitFor();
    const clientId = await signedInClientId(page);
    const [mcu] = (await apiCaller(app, context)("get", `/api/mcus/by-client/${clientId}`)) as { mcu_id: number; farm_id: number }[];
    // Each screen's chunk is loaded as it opens (the schema library once came with the history, batch and recipe screens).
    const violations: unknown[] = [];
    for (const path of ["/recipes", "/recipes/new", "/batches", `/mcu/${mcu!.mcu_id}`, `/farms/${mcu!.farm_id}/history`, "/alarms", "/settings", "/wall"]) {
      await page.goto(path);
      await page.getByRole("heading").first().waitFor();
      await page.waitForLoadState("networkidle");
      violations.push(...((await page.evaluate("window.cspViolations")) as unknown[]));
    }
    expect(violations).toEqual([]);
    await context.close();
  });

  it("is controlled by the service worker after a reload and opens offline with a notice, under the same CSP", async () => {
    const { page, context } = await app.newPage("phone");
    // Whatever the policy blocks is reported to the page: nothing of the app may be.
    await page.addInitScript({
      content: 'window.cspViolations = []; document.addEventListener("securitypolicyviolation", (e) => window.cspViolations.push(e.violatedDirective + " " + e.blockedURI));',
    });
    await signIn(page);
    await page.waitForFunction("navigator.serviceWorker.ready.then(() => true)");
    const online = await page.reload();
    await page.waitForFunction("navigator.serviceWorker.controller !== null");
    expect(await page.getByText("Cannot reach the farm server.").count()).toBe(0);
    expect(online!.headers()["content-security-policy"]).toContain("script-src 'self'");
    // Live data has come over the socket (a demo MCU shows Online), with nothing blocked.
    await page.getByText("Online", { exact: true }).first().waitFor({ timeout: 20_000 });
    expect(await page.evaluate("window.cspViolations")).toEqual([]);

    expect(await app.server.stop()).toBe(0);
    const offline = await page.reload();
    // The service worker's answer for the navigation carries the server's CSP (kept in its precache).
    expect(offline!.fromServiceWorker()).toBe(true);
    expect(offline!.headers()["content-security-policy"]).toContain("script-src 'self'");
    // The app shell comes from the service worker's cache, and says that it is offline.
    await page.getByRole("button", { name: "Open menu" }).waitFor();
    await page.getByText("Cannot reach the farm server.", { exact: false }).waitFor({ timeout: 20_000 });
    await page.screenshot({ path: "test-results/pwa-offline-phone.png" });
    await context.close();
  });
});
