import react from "@vitejs/plugin-react";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { browserCommands } from "./tests/support/browser-fixture.ts";

/** CI asks for a JSON report too (VITEST_JSON), from which .ci/run prints its summary line. */
const json = process.env.VITEST_JSON;

/**
 * The real server of the browser tests listens here (started by the browser project's global
 * setup); the browser project's Vite server proxies the API and the socket to it.
 */
const browserApiPort = Number((process.env.BROWSER_API_PORT ??= String(41000 + (process.pid % 8000))));
const api = `http://127.0.0.1:${browserApiPort}`;

export default defineConfig({
  test: {
    reporters: json ? ["default", "json"] : ["default"],
    outputFile: json ? { json } : undefined,
    projects: [
      {
        test: {
          name: "unit",
          environment: "node",
          include: ["server/**/*.test.ts", "src/contract/**/*.test.ts", "src/streams/**/*.test.ts", "src/worker/**/*.test.ts", "src/ui/**/*.test.ts", "src/locales/**/*.test.ts"],
          exclude: ["**/*.browser.test.*"],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        // changeOrigin false keeps the page's Host, so the server sees the request as same-origin.
        server: {
          proxy: {
            "/api": { target: api, changeOrigin: false },
            "/notifications": { target: api, changeOrigin: false },
            "/socket.io": { target: api, ws: true, changeOrigin: false },
          },
        },
        worker: { format: "es" },
        // Pre-bundled with React from the start: found mid-run, it would load a second React.
        optimizeDeps: { include: ["@tanstack/react-virtual"] },
        test: {
          name: "browser",
          include: ["src/**/*.browser.test.{ts,tsx}"],
          setupFiles: ["src/test-support/i18n-setup.ts"],
          globalSetup: ["tests/support/browser-global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: {
                executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
                args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
              },
            }),
            instances: [{ browser: "chromium" }],
            commands: browserCommands,
          },
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["tests/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
