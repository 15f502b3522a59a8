/**
 * Starts the data core's worker while the app's own code is still loading: this tiny module runs
 * first (index.html), so the worker's script is fetched and evaluated alongside the app's instead
 * of after it. `startDataCore` takes the worker from here.
 */
declare global {
  var __dataCoreWorker: Worker | undefined;
}

if (typeof Worker !== "undefined") {
  try {
    globalThis.__dataCoreWorker = new Worker(new URL("../worker/data-core.worker.ts", import.meta.url), { type: "module", name: "data-core" });
  } catch {
    // startDataCore tries again, and falls back to running the core in the page.
  }
}

export {};
