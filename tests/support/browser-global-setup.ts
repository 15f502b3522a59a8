import { startBrowserFixture, stopBrowserFixture } from "./browser-fixture.ts";

/** Starts the real server the browser project's Vite server proxies to (port set by vitest.config.ts). */
export default async function setup() {
  await startBrowserFixture(Number(process.env.BROWSER_API_PORT));
  return () => stopBrowserFixture();
}
