import * as Comlink from "comlink";
import { CoreError, deserializeCoreError, toCoreError, type SerializedCoreError } from "../../contract/core-error.ts";
import type { CoreUpdate } from "../../contract/live.ts";
import type { DataCore } from "../../worker/core.ts";
import { isSessionEnded } from "../../contract/session-ended.ts";
import { startWorker } from "./start-worker.ts";

/** The data core as the main thread sees it: every call is asynchronous, in a worker or not. */
export type CoreHandle = { [K in keyof DataCore]: (...args: Parameters<DataCore[K]>) => Promise<Awaited<ReturnType<DataCore[K]>>> };

const isSerializedCoreError = (e: unknown): e is SerializedCoreError =>
  typeof e === "object" && e !== null && "code" in e && "message" in e && !(e instanceof Error);

/**
 * A call that failed because the session ended never settles: the core has reported the end, the
 * app answers it once (a notice and /login), and the screen that made the call is going away. Its
 * own failure toast or retry button would only repeat the notice with nothing the user can do.
 */
const never = new Promise<never>(() => {});

function rethrow(err: unknown): Promise<never> {
  if (isSessionEnded(err)) return never;
  throw isSerializedCoreError(err) ? deserializeCoreError(err) : err instanceof CoreError ? err : toCoreError(err);
}

/** Calls `target[name]`, passing callbacks across the worker boundary as Comlink proxies. */
function handleOf(target: Record<string, (...args: unknown[]) => unknown>, inWorker: boolean): CoreHandle {
  return new Proxy({} as CoreHandle, {
    get: (_t, name: string) => async (...args: unknown[]) => {
      try {
        return await target[name]!(...(inWorker ? args.map((a) => (typeof a === "function" ? Comlink.proxy(a) : a)) : args));
      } catch (err) {
        return rethrow(err);
      }
    },
  });
}

/**
 * Starts the data core in a Web Worker (Comlink), or in this thread where workers are not
 * available. `onUpdate` receives what the core sends; it must call `ack` after a live batch.
 */
export async function startDataCore(options: { apiBase: string; onUpdate: (update: CoreUpdate) => void; preferWorker?: boolean }): Promise<{ core: CoreHandle; inWorker: boolean; terminate(): void }> {
  if (options.preferWorker !== false && typeof Worker !== "undefined") {
    try {
      // The one index.html started early (boot-worker.ts), once; else a new one.
      const started = globalThis.__dataCoreWorker ?? startWorker();
      globalThis.__dataCoreWorker = undefined;
      const { worker } = started;
      const remote = Comlink.wrap<DataCore>(worker);
      const core = handleOf(remote as unknown as Record<string, (...a: unknown[]) => unknown>, true);
      // A worker that cannot load its code would leave this call unanswered: the page runs the core itself instead.
      await Promise.race([core.configure({ apiBase: options.apiBase }), started.failed]).catch((err: unknown) => {
        worker.terminate();
        throw err;
      });
      await core.subscribe(options.onUpdate);
      return { core, inWorker: true, terminate: () => worker.terminate() };
    } catch (err) {
      console.warn("Data core worker unavailable, running in this thread:", err);
    }
  }
  const { createDataCore } = await import("../../worker/core.ts");
  const local = createDataCore();
  local.configure({ apiBase: options.apiBase });
  local.subscribe(options.onUpdate);
  return { core: handleOf(local as unknown as Record<string, (...a: unknown[]) => unknown>, false), inWorker: false, terminate: () => local.stop() };
}
