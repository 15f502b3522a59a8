import * as Comlink from "comlink";
import { CoreError, deserializeCoreError, toCoreError, type SerializedCoreError } from "../../contract/core-error.ts";
import type { CoreUpdate, DataCore } from "../../worker/core.ts";

/** The data core as the main thread sees it: every call is asynchronous, in a worker or not. */
export type CoreHandle = { [K in keyof DataCore]: (...args: Parameters<DataCore[K]>) => Promise<Awaited<ReturnType<DataCore[K]>>> };

const isSerializedCoreError = (e: unknown): e is SerializedCoreError =>
  typeof e === "object" && e !== null && "code" in e && "message" in e && !(e instanceof Error);

function rethrow(err: unknown): never {
  throw isSerializedCoreError(err) ? deserializeCoreError(err) : err instanceof CoreError ? err : toCoreError(err);
}

/**
 * Starts the data core in a Web Worker (Comlink), or in this thread where workers are not
 * available. `onUpdate` receives what the core sends; it must call `ack` after a live batch.
 */
export async function startDataCore(options: { apiBase: string; onUpdate: (update: CoreUpdate) => void; preferWorker?: boolean }): Promise<{ core: CoreHandle; inWorker: boolean; terminate(): void }> {
  if (options.preferWorker !== false && typeof Worker !== "undefined") {
    try {
      const worker = new Worker(new URL("../../worker/data-core.worker.ts", import.meta.url), { type: "module", name: "data-core" });
      const remote = Comlink.wrap<DataCore>(worker);
      const core = new Proxy({} as CoreHandle, {
        get: (_t, name: string) => async (...args: unknown[]) => {
          try {
            return await (remote as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]!(...args);
          } catch (err) {
            rethrow(err);
          }
        },
      });
      await core.configure({ apiBase: options.apiBase });
      await core.subscribe(Comlink.proxy(options.onUpdate));
      return { core, inWorker: true, terminate: () => worker.terminate() };
    } catch (err) {
      console.warn("Data core worker unavailable, running in this thread:", err);
    }
  }
  const { createDataCore } = await import("../../worker/core.ts");
  const local = createDataCore();
  local.configure({ apiBase: options.apiBase });
  local.subscribe(options.onUpdate);
  const core = new Proxy({} as CoreHandle, {
    get: (_t, name: string) => async (...args: unknown[]) => {
      try {
        return await (local as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
      } catch (err) {
        rethrow(err);
      }
    },
  });
  return { core, inWorker: false, terminate: () => local.stop() };
}
