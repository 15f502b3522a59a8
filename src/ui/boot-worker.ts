import { firstListPaths } from "../contract/api-paths.ts";
import type { EarlyFetchMessage } from "../worker/early-fetch.ts";
import { storedClient } from "./data/stored-client.ts";

/**
 * Starts the data core's worker while the app's own code is still loading: this tiny module runs
 * first (index.html), so the worker's script is fetched and evaluated alongside the app's instead
 * of after it. `startDataCore` takes the worker from here. A returning farmer's first lists are
 * asked for at once (the worker's entry requests them while the core loads).
 */
declare global {
  var __dataCoreWorker: Worker | undefined;
}

if (typeof Worker !== "undefined") {
  try {
    const worker = new Worker(new URL("../worker/data-core.worker.ts", import.meta.url), { type: "module", name: "data-core" });
    globalThis.__dataCoreWorker = worker;
    const client = storedClient(localStorage);
    const apiBase = (import.meta.env.VITE_API_BASE ?? "").replace(/\/$/, "");
    if (client) worker.postMessage({ kind: "early-fetch", urls: firstListPaths(client.client_id).map((path) => apiBase + path) } satisfies EarlyFetchMessage);
  } catch {
    // startDataCore tries again, and falls back to running the core in the page.
  }
}

export {};
