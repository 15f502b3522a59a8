import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mcu, Notification } from "../src/contract/entities.ts";
import { signedInClientId, signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";

/**
 * An alert for a condition that is still active is not raised again when the
 * server restarts, and what the user marked read stays read. The demo's Packing Cooler runs on a
 * low battery (24 %) from the first start on, and its alert is among the seeded notifications.
 */
const LOW_BATTERY_TITLE = "Packing Cooler: battery low";
const SHOTS = "/work/briefs/shots";

describe("alerts across server restarts", () => {
  let app: DemoApp;
  let context: BrowserContext;
  let page: Page;
  let clientId: number;

  beforeAll(async () => {
    app = await startDemoApp();
    ({ context, page } = await app.newPage("laptop"));
    await signIn(page);
    clientId = await signedInClientId(page);
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await app?.stop();
  });

  async function notifications(): Promise<Notification[]> {
    const res = await context.request.get(`/notifications/${clientId}`);
    expect(res.status()).toBe(200);
    return res.json();
  }
  const titled = (all: Notification[], title: string) => all.filter((n) => n.title === title);

  /** When the Packing Cooler last reported, as stored (the alert engine has seen that reading). */
  async function packingCoolerSeen(): Promise<string | null> {
    const mcus = (await (await context.request.get(`/api/mcus/by-client/${clientId}`)).json()) as Mcu[];
    const cooler = mcus.find((m) => m.name === "Packing Cooler")!;
    return typeof cooler.readings === "object" && cooler.readings?.batteryLevel !== undefined ? (cooler.lastSeen ?? null) : null;
  }

  /** Waits for two stored reports of the Packing Cooler after `since`: the alert engine handled the first. */
  async function coolerReportedTwiceSince(since: string | null) {
    let first: string | null = null;
    await expect.poll(async () => (first = await packingCoolerSeen()) !== null && first !== since, { timeout: 30_000 }).toBe(true);
    await expect.poll(async () => (await packingCoolerSeen()) !== first, { timeout: 30_000 }).toBe(true);
    return packingCoolerSeen();
  }

  it("has the demo's low battery alert once, after the fleet reported the low battery", async () => {
    await coolerReportedTwiceSince(null);
    const all = await notifications();
    expect(titled(all, LOW_BATTERY_TITLE)).toHaveLength(1);
    expect(titled(all, LOW_BATTERY_TITLE)[0]!.read_status).toBe(false);
  });

  it("marks it read through PUT /notifications/{client_id}/read", async () => {
    const [alert] = titled(await notifications(), LOW_BATTERY_TITLE);
    const res = await context.request.put(`/notifications/${clientId}/read`, { headers: { Origin: app.url }, data: { notification_ids: [alert!.notification_id] } });
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ updated: 1 });
    expect(titled(await notifications(), LOW_BATTERY_TITLE)[0]!.read_status).toBe(true);
  });

  it("raises no alert again over two restarts while the battery stays low, and keeps it read", async () => {
    const before = await notifications();
    let seen = await packingCoolerSeen();
    for (let restart = 1; restart <= 2; restart++) {
      await app.restart();
      seen = await coolerReportedTwiceSince(seen);
      const all = await notifications();
      expect(titled(all, LOW_BATTERY_TITLE), `after restart ${restart}`).toEqual(titled(before, LOW_BATTERY_TITLE));
      expect(all.filter((n) => n.title.endsWith(": battery low")), `after restart ${restart}`).toHaveLength(
        before.filter((n) => n.title.endsWith(": battery low")).length,
      );
      // The demo fleet stops with the server: that is no MCU going offline and coming back.
      expect(all.filter((n) => n.type === "mcu_offline" || n.type === "mcu_online").map((n) => n.title)).toEqual([]);
    }
  }, 120_000);

  it("lists the alert once in the notification panel after the restarts", async () => {
    await page.reload();
    await page.getByRole("button", { name: /^Notifications/ }).click();
    const panel = page.getByRole("dialog", { name: "Notifications" });
    await panel.getByRole("button", { name: "Close notifications" }).waitFor();
    await panel.getByRole("listitem").filter({ hasText: LOW_BATTERY_TITLE }).first().waitFor();
    expect(await panel.getByRole("listitem").filter({ hasText: LOW_BATTERY_TITLE }).count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/h1-alerts-after-restart-laptop.png` });
  });
});
