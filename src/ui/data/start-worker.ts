/** A worker and the promise that rejects if its script (or a chunk it loads) fails to load or run. */
export interface StartedWorker {
  worker: Worker;
  failed: Promise<never>;
}

/** Starts the data core's worker and watches it for a failure to load (a chunk lost on a flaky network). */
export function startWorker(): StartedWorker {
  const worker = new Worker(new URL("../../worker/data-core.worker.ts", import.meta.url), { type: "module", name: "data-core" });
  const failed = new Promise<never>((_, reject) => worker.addEventListener("error", (ev) => reject(new Error(ev.message || "The data core's worker failed to start")), { once: true }));
  failed.catch(() => undefined); // reported by startDataCore, which races it
  return { worker, failed };
}
