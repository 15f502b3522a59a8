import * as Comlink from "comlink";
import { CoreError, deserializeCoreError, toCoreError, type SerializedCoreError } from "../../contract/core-error.ts";
import type { FirstMcusMessage } from "../../contract/first-mcus.ts";
import type { DataCore, DataCoreUpdate } from "../../worker/core.ts";
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

/** A started core: where it runs, and how to end it. */
interface RunningCore {
  core: CoreHandle;
  inWorker: boolean;
  terminate(): void;
}

interface CoreOptions {
  apiBase: string;
  onUpdate: (update: DataCoreUpdate) => void;
  /** The first screen of MCU records the worker sent before its core was up (not validated by the schema: see first-mcus.ts). */
  onFirstMcus?: (first: FirstMcusMessage) => void;
  preferWorker?: boolean;
}

async function runCore(options: CoreOptions): Promise<RunningCore> {
  if (options.preferWorker !== false && typeof Worker !== "undefined") {
    try {
      // The one index.html started early (boot-worker.ts), once; else a new one.
      const started = globalThis.__dataCoreWorker ?? startWorker();
      globalThis.__dataCoreWorker = undefined;
      const { worker } = started;
      if (options.onFirstMcus) started.onFirstMcus(options.onFirstMcus);
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

/**
 * Starts the data core in a Web Worker (Comlink), or in this thread where workers are not
 * available or the worker cannot load its code. `onUpdate` receives what the core sends; it must
 * call `ack` after a live batch.
 *
 * The handle comes at once: the app renders while the core's code still loads (most of it is the
 * schema library, ~0.5 s on a slow machine). Calls made before the core is up wait for it and go
 * in the order they were made; `ready` tells where it runs.
 */
export function startDataCore(options: CoreOptions): {
  core: CoreHandle;
  ready: Promise<{ inWorker: boolean }>;
  terminate(): void;
} {
  const running = runCore(options);
  let terminated = false;
  const core = new Proxy({} as CoreHandle, {
    get: (_t, name: string) => async (...args: unknown[]) => ((await running).core as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]!(...args),
  });
  return {
    core,
    ready: running.then(({ inWorker }) => ({ inWorker })),
    terminate() {
      if (terminated) return;
      terminated = true;
      void running.then((r) => r.terminate());
    },
  };
}
