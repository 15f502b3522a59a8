/**
 * The README's screenshots: the demo, as a new user meets it, in Chromium at laptop size (and the
 * dashboard on a phone, the wall view on a wall screen). Starts the real server on a fresh data
 * folder with the built app (`npm run build` first), signs in as the demo and writes PNGs to
 * docs/screenshots/.
 *
 *   npx tsx scripts/readme-screenshots.ts
 */
import { mkdir } from "node:fs/promises";
import type { Page } from "playwright";
import { signIn, startDemoApp } from "../tests/support/app-harness.ts";

const OUT = "docs/screenshots";
await mkdir(OUT, { recursive: true });
const app = await startDemoApp();

/** Waits until the page shows `text`, lets live values settle, then writes `name`.png. */
async function shot(page: Page, name: string, text: string | RegExp) {
  await page.getByText(text).first().waitFor({ timeout: 30_000 });
  // Live values settle, and the sign-in's toast has closed (5 s).
  await page.waitForTimeout(2500);
  await page.locator(".Toastify__toast").first().waitFor({ state: "detached", timeout: 10_000 }).catch(() => undefined);
  await page.screenshot({ path: `${OUT}/${name}.png` });
  console.log(`${OUT}/${name}.png`);
}

try {
  const { context, page } = await app.newPage("laptop");
  await signIn(page);
  await shot(page, "dashboard", "MCU Readings");
  const mcus = (await page.evaluate(`fetch("/api/mcus/by-client/" + JSON.parse(localStorage.getItem("client")).client_id).then((r) => r.json())`)) as { mcu_id: number; name: string }[];
  const farms = (await page.evaluate(`fetch("/api/farms/myfarms/get?client_id=" + JSON.parse(localStorage.getItem("client")).client_id).then((r) => r.json())`)) as { farm_id: number }[];
  await page.goto("/mcu");
  await shot(page, "mcu-manager", "Total MCUs");
  await page.goto(`/mcu/${mcus[0]!.mcu_id}`);
  await page.locator(".u-over").first().waitFor({ timeout: 30_000 });
  await shot(page, "mcu-history", mcus[0]!.name);
  await page.goto(`/farms/${farms[0]!.farm_id}/history`);
  await page.locator(".u-over").first().waitFor({ timeout: 30_000 });
  await shot(page, "farm-history", "Farm History");
  await page.goto("/alarms");
  await shot(page, "alarms", "Alarms");
  await page.goto("/settings-profile");
  await shot(page, "profiles", /profile/i);
  await page.goto("/sensors");
  await shot(page, "sensors", /Sensor/);
  await context.close();

  const phone = await app.newPage("phone");
  await signIn(phone.page);
  await shot(phone.page, "dashboard-phone", "MCU Readings");
  await phone.context.close();

  const wall = await app.newPage("wall");
  await signIn(wall.page);
  await wall.page.goto("/wall");
  await shot(wall.page, "wall", /MCUs/);
  await wall.context.close();
} finally {
  await app.stop();
}
