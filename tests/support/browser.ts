import { chromium, type Browser } from "playwright";

/** Debian's Chromium, driven by Playwright (never a downloaded browser). */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", ...extraArgs],
  });
}
