import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deviceLabel } from "../src/contract/claim-code.ts";
import { demoClaimCode } from "../server/devices/device-keys.ts";
import { launchChromium } from "./support/browser.ts";
import { signIn, startDemoApp, VIEWPORTS, type DemoApp } from "./support/app-harness.ts";

/**
 * SPEC §2 QR scanner modal through Chromium's fake camera, fed by a Y4M video of a QR code that
 * the test draws, against the real server and the demo farm's unclaimed stock.
 */

const STOCK_CONTROLLER = "02:4D:46:00:02:01"; // Humidifier
const STOCK_MCU = "02:4D:46:00:01:02";
const STOCK_MCU_3 = "02:4D:46:00:01:03";

const WIDTH = 1280;
const HEIGHT = 720;

/**
 * A Y4M video (4:2:0 planar) of `text` as a black-on-white QR code centred on a white frame.
 * Chromium's fake camera loops the file, so a few identical frames are a still picture.
 */
function qrVideo(text: string): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const quiet = 4;
  const scale = Math.floor((HEIGHT * 0.8) / (modules.size + 2 * quiet));
  const side = (modules.size + 2 * quiet) * scale;
  const left = Math.floor((WIDTH - side) / 2) + quiet * scale;
  const top = Math.floor((HEIGHT - side) / 2) + quiet * scale;
  const luma = Buffer.alloc(WIDTH * HEIGHT, 235);
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      for (let y = 0; y < scale; y++) luma.fill(16, (top + row * scale + y) * WIDTH + left + col * scale, (top + row * scale + y) * WIDTH + left + (col + 1) * scale);
    }
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2), 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), luma, chroma, chroma]);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`), frame, frame, frame]);
}

/** Every camera stream the page obtains, so a test can check that all its tracks end. */
const RECORD_STREAMS = `(() => {
  const streams = (window.__cameraStreams = []);
  const md = navigator.mediaDevices;
  if (!md) return;
  const original = md.getUserMedia.bind(md);
  md.getUserMedia = async (constraints) => {
    const stream = await original(constraints);
    streams.push(stream);
    return stream;
  };
})()`;

const cameraTracks = (page: Page) =>
  page.evaluate<{ total: number; live: number }>(`(() => {
    const tracks = window.__cameraStreams.flatMap((s) => s.getTracks());
    return { total: tracks.length, live: tracks.filter((t) => t.readyState !== "ended").length };
  })()`);

async function dialog(page: Page, title: string): Promise<Locator> {
  const d = page.getByRole("dialog", { name: title });
  await d.getByRole("heading", { name: title }).waitFor();
  return d;
}

const inputValue = (scope: Locator, label: string) => scope.getByLabel(label, { exact: true }).inputValue();
const eventually = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 15_000 });

describe("QR scanner", () => {
  let app: DemoApp;
  let videoDir: string;
  const browsers: Browser[] = [];

  /** A Chromium whose only camera films a QR code of `text`. */
  async function cameraPage(text: string, size: keyof typeof VIEWPORTS = "laptop"): Promise<Page> {
    const file = join(videoDir, `${browsers.length}.y4m`);
    await writeFile(file, qrVideo(text));
    const browser = await launchChromium(["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", `--use-file-for-fake-video-capture=${file}`]);
    browsers.push(browser);
    const context = await browser.newContext({ viewport: VIEWPORTS[size], baseURL: app.url });
    await context.addInitScript(RECORD_STREAMS);
    const page = await context.newPage();
    await signIn(page);
    return page;
  }

  beforeAll(async () => {
    videoDir = await mkdtemp(join(tmpdir(), "mf-qr-"));
    app = await startDemoApp();
  });
  afterAll(async () => {
    await Promise.all(browsers.map((b) => b.close()));
    await app?.stop();
    await rm(videoDir, { recursive: true, force: true });
  });

  it("reads a controller's MAC from the camera, looks it up, stops the camera, and claims the device", async () => {
    const page = await cameraPage(STOCK_CONTROLLER);
    await page.goto("/controllers");
    await page.getByRole("heading", { level: 2, name: "System Controllers" }).waitFor();
    await page.getByRole("button", { name: "Scan Controller" }).click();

    const form = await dialog(page, "Add Controller");
    expect(await inputValue(form, "MAC")).toBe(STOCK_CONTROLLER);
    expect(await inputValue(form, "Type")).toBe("Humidifier");
    expect(await page.getByRole("dialog", { name: "Scan Controller" }).count()).toBe(0);
    const tracks = await cameraTracks(page);
    expect(tracks.total).toBeGreaterThan(0);
    expect(tracks.live).toBe(0);

    // Claim it: the scanned inventory device becomes this client's controller.
    await form.getByLabel("Name", { exact: true }).fill("Scanned mist maker");
    await form.getByLabel("Assign to MCU").selectOption({ index: 1 });
    await form.getByRole("button", { name: "Create" }).click();
    await page.locator(".Toastify").getByText("Created successfully").first().waitFor();
    await page.getByRole("heading", { name: "Scanned mist maker" }).or(page.getByText("Scanned mist maker")).first().waitFor();
  });

  it("fills the Add MCU form from Scan MCU and from the MAC field's scan button, even from a URL", async () => {
    const page = await cameraPage(`https://mushroom.farm/device?mac=${STOCK_MCU.toLowerCase().replace(/:/g, "-")}`);
    await page.goto("/mcu");
    await page.getByRole("heading", { level: 2, name: "MCU Manager" }).waitFor();
    await page.getByRole("button", { name: "Scan MCU" }).click();
    const form = await dialog(page, "Add New MCU");
    expect(await inputValue(form, "MAC Address")).toBe(STOCK_MCU);
    expect(await inputValue(form, "MCU Name")).toBe("");

    await form.getByLabel("MAC Address", { exact: true }).fill("");
    await form.getByRole("button", { name: "Scan MAC address" }).click();
    await eventually(() => inputValue(form, "MAC Address")).toBe(STOCK_MCU);
    await page.getByRole("dialog", { name: "Scan MCU" }).waitFor({ state: "detached" });
    const tracks = await cameraTracks(page);
    expect(tracks.total).toBeGreaterThanOrEqual(2);
    expect(tracks.live).toBe(0);
  });

  it("reads an MCU label's MAC and claim code into the Add MCU form, and the MCU is added and reports", async () => {
    const label = deviceLabel(STOCK_MCU_3, demoClaimCode(STOCK_MCU_3));
    const page = await cameraPage(label);
    await page.goto("/mcu");
    await page.getByRole("heading", { level: 2, name: "MCU Manager" }).waitFor();
    await page.getByRole("button", { name: "Scan MCU" }).click();
    const form = await dialog(page, "Add New MCU");
    expect(await inputValue(form, "MAC Address")).toBe(STOCK_MCU_3);
    expect(await inputValue(form, "Claim Code")).toBe(demoClaimCode(STOCK_MCU_3));
    // The form's own scan button fills both as well.
    await form.getByLabel("MAC Address", { exact: true }).fill("");
    await form.getByLabel("Claim Code", { exact: true }).fill("");
    await form.getByRole("button", { name: "Scan MAC address" }).click();
    await eventually(() => inputValue(form, "Claim Code")).toBe(demoClaimCode(STOCK_MCU_3));
    expect(await inputValue(form, "MAC Address")).toBe(STOCK_MCU_3);
    // The errors the emptied fields showed are gone with the scanned values.
    await eventually(() => form.getByText(/is required/).count()).toBe(0);
    await page.screenshot({ path: "test-results/qr-scanner-claim-code.png" });

    await form.getByLabel("MCU Name").fill("Scanned bay");
    await form.getByLabel("Assign to Farm").selectOption("Valley Tunnels");
    await form.getByRole("button", { name: "Add MCU" }).click();
    await page.locator(".Toastify").getByText("Scanned bay MCU added successfully").first().waitFor();
    await form.waitFor({ state: "detached" });
  });

  it("rejects a code without a MAC and keeps scanning until closed, on a phone", async () => {
    const page = await cameraPage("Fresh oyster mushrooms", "phone");
    await page.goto("/controllers");
    await page.getByRole("heading", { level: 2, name: "System Controllers" }).waitFor();
    await page.getByRole("button", { name: "Scan Controller" }).click();
    const scanner = await dialog(page, "Scan Controller");
    await scanner.getByText("This QR code does not contain a MAC address. Scan the code on the device's label.").waitFor();
    expect(await scanner.getByRole("status").textContent()).toBe("Scanning...");
    await eventually(async () => (await cameraTracks(page)).live).toBe(1);
    await page.screenshot({ path: "test-results/qr-scanner-phone.png" });

    await scanner.getByRole("button", { name: "Close" }).click();
    await scanner.waitFor({ state: "detached" });
    await eventually(async () => (await cameraTracks(page)).live).toBe(0);
  });

  it("offers Try Again and typing the MAC when there is no camera", async () => {
    // The harness's Chromium has no camera at all.
    const { context, page } = await app.newPage("phone");
    await signIn(page);
    await page.goto("/controllers");
    await page.getByRole("heading", { level: 2, name: "System Controllers" }).waitFor();
    await page.getByRole("button", { name: "Scan Controller" }).click();
    const scanner = await dialog(page, "Scan Controller");
    const error = scanner.getByRole("alert").filter({ hasText: /camera/ });
    await error.waitFor();
    expect(["No camera found on this device.", "Camera permission denied. Please allow camera access and try again."]).toContain(await error.locator("p").textContent());
    // One error, in one place: the dialog says it (SPEC §8's Scanner error and the camera's text), no toast repeats it.
    expect(await error.getByRole("heading", { name: "Scanner error" }).count()).toBe(1);
    expect(await page.getByRole("dialog").getByRole("alert").count()).toBe(1);
    expect(await page.locator(".Toastify__toast").count()).toBe(0);
    await page.screenshot({ path: "test-results/qr-scanner-error-phone.png" });

    await error.getByRole("button", { name: "Try Again" }).click();
    await scanner.getByRole("alert").filter({ hasText: /camera/ }).waitFor();

    // Another unclaimed controller: the first test has claimed STOCK_CONTROLLER.
    await scanner.getByLabel("MAC Address").fill("02:4d:46:00:02:02");
    await scanner.getByRole("button", { name: "Look up" }).click();
    const form = await dialog(page, "Add Controller");
    expect(await inputValue(form, "MAC")).toBe("02:4D:46:00:02:02");
    expect(await inputValue(form, "Type")).toBe("Irrigation");
    await context.close();
  });
});
