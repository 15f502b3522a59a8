import { isFirstMcusMessage, type FirstMcusMessage } from "../../contract/first-mcus.ts";

/** A worker and the promise that rejects if its script (or a chunk it loads) fails to load or run. */
export interface StartedWorker {
  worker: Worker;
  failed: Promise<never>;
  /**
   * Where the first screen of MCU records (and their cards' views) goes that the worker's entry
   * sends while its core still loads (src/contract/first-mcus.ts): given at once if it came
   * already, else when it comes; once.
   */
  onFirstMcus(sink: (first: FirstMcusMessage) => void): void;
}

/**
 * Listens to `worker` for the first screen of MCU records from the start: a message no listener
 * hears is lost, and the app's code that takes it loads after the worker's first lines may have
 * sent it. Answers the `onFirstMcus` of StartedWorker.
 */
export function watchFirstMcus(worker: Worker): StartedWorker["onFirstMcus"] {
  let first: FirstMcusMessage | null = null;
  let sink: ((first: FirstMcusMessage) => void) | null = null;
  const onMessage = (ev: MessageEvent) => {
    if (!isFirstMcusMessage(ev.data)) return;
    worker.removeEventListener("message", onMessage);
    if (sink) sink(ev.data);
    else first = ev.data;
  };
  worker.addEventListener("message", onMessage);
  return (s) => {
    if (first) {
      s(first);
      first = null;
    } else sink = s;
  };
}

/** Starts the data core's worker and watches it for a failure to load (a chunk lost on a flaky network). */
export function startWorker(): StartedWorker {
  const worker = new Worker(new URL("../../worker/data-core.worker.ts", import.meta.url), { type: "module", name: "data-core" });
  const failed = new Promise<never>((_, reject) => worker.addEventListener("error", (ev) => reject(new Error(ev.message || "The data core's worker failed to start")), { once: true }));
  failed.catch(() => undefined); // reported by startDataCore, which races it
  return { worker, failed, onFirstMcus: watchFirstMcus(worker) };
}
