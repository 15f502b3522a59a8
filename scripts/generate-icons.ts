/**
 * Renders the app icons (PWA manifest, Apple touch icon) from public/favicon.svg with Debian's
 * Chromium. Run once after changing the logo: `npx tsx scripts/generate-icons.ts`.
 */
import { readFile } from "node:fs/promises";
import { launchChromium } from "../tests/support/browser.ts";

const svg = await readFile("public/favicon.svg", "utf8");
const browser = await launchChromium();
const page = await browser.newPage();
const icons = [
  { file: "public/icons/icon-192.png", size: 192, padding: 0.08, background: "#f0fdf4" },
  { file: "public/icons/icon-512.png", size: 512, padding: 0.08, background: "#f0fdf4" },
  // Maskable: the logo inside the 80% safe zone on a full-bleed background.
  { file: "public/icons/maskable-512.png", size: 512, padding: 0.2, background: "#14532d" },
  { file: "public/icons/apple-touch-icon-180.png", size: 180, padding: 0.1, background: "#f0fdf4" },
];
for (const icon of icons) {
  await page.setViewportSize({ width: icon.size, height: icon.size });
  const inner = Math.round(icon.size * (1 - 2 * icon.padding));
  await page.setContent(
    `<html><body style="margin:0;width:${icon.size}px;height:${icon.size}px;display:flex;align-items:center;justify-content:center;background:${icon.background}">` +
      `<div style="width:${inner}px;height:${inner}px">${svg.replace("<svg ", `<svg width="${inner}" height="${inner}" `)}</div></body></html>`,
  );
  await page.screenshot({ path: icon.file, omitBackground: false });
}
await browser.close();
console.log(`wrote ${icons.map((i) => i.file).join(", ")}`);
