import { firstListPaths } from "../contract/api-paths.ts";
import type { EarlyFetchMessage } from "../worker/early-fetch.ts";
import { startWorker, type StartedWorker } from "./data/start-worker.ts";
import { storedClient } from "./data/stored-client.ts";

/**
 * Starts the data core's worker while the app's own code is still loading: this tiny module runs
 * first (index.html), so the worker's script is fetched and evaluated alongside the app's instead
 * of after it. `startDataCore` takes the worker from here. A returning farmer's first lists are
 * asked for at once (the worker's entry requests them while the core loads).
 */
declare global {
  var __dataCoreWorker: StartedWorker | undefined;
}

if (typeof Worker !== "undefined") {
  try {
    const started = startWorker();
    globalThis.__dataCoreWorker = started;
    const { worker } = started;
    const client = storedClient(localStorage);
    const apiBase = (import.meta.env.VITE_API_BASE ?? "").replace(/\/$/, "");
    if (client) {
      const urls = firstListPaths(client.client_id).map((path) => apiBase + path);
      worker.postMessage({ kind: "early-fetch", urls, head: urls[0] } satisfies EarlyFetchMessage);
    }
  } catch {
    // startDataCore tries again, and falls back to running the core in the page.
  }
}

export {};
