import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { withBackgroundLane } from "./background-lane.ts";
import type { Database, Sql } from "./database.ts";

export type ThreadRequest =
  | { id: number; op: "query"; text: string; params?: readonly unknown[]; tx?: number }
  | { id: number; op: "exec"; script: string }
  | { id: number; op: "begin" }
  | { id: number; op: "end"; tx: number; commit: boolean }
  | { id: number; op: "close" };
export type ThreadReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: Record<string, unknown> };

type Request = ThreadRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

/**
 * PGlite in a worker thread (`pglite-thread-worker.ts`), behind the same `Database` as in this
 * thread. The server's event loop then only posts a query and reads its rows: PGlite's WASM, its
 * file writes and checkpoints (measured: 240-400 ms at a time with 2 000 MCUs reporting) run on
 * the other core. Errors keep their PostgreSQL fields (`code`, `constraint` …), so repositories
 * see the same errors as in one thread.
 */
export async function openPgliteThread(dataDir?: string): Promise<Database> {
  // The worker is TypeScript: it loads through tsx, whether this process runs under tsx or not.
  // (tsx/esm/api's "import" entry: the one beside its "require" entry, which Node's require resolves.)
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs")).href;
  const file = new URL("./pglite-thread-worker.ts", import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(file)}); })`;
  const worker = new Worker(boot, { eval: true, execArgv: [], workerData: { dataDir }, name: "pglite" });

  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  let stopped: Error | undefined;

  // The thread keeps the process alive only while it has work, like a socket with a request out.
  const settle = (id: number) => {
    const p = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return p;
  };
  const ready = new Promise<void>((resolve, reject) => pending.set(0, { resolve: () => resolve(), reject }));
  worker.on("message", (m: ThreadReply) => {
    const p = settle(m.id);
    if (!p) return;
    if (m.ok) p.resolve(m.value);
    else p.reject(Object.assign(new Error(String(m.error.message)), m.error));
  });
  const stop = (err: Error) => {
    stopped ??= err;
    for (const id of [...pending.keys()]) settle(id)?.reject(stopped);
  };
  worker.on("error", (err) => stop(new Error(`The database thread failed: ${err.message}`)));
  worker.on("exit", (code) => stop(new Error(`The database thread stopped (exit code ${code})`)));

  function call(req: Request): Promise<unknown> {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    if (pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...req, id } as ThreadRequest);
    });
  }

  await ready;

  const sql = (tx?: number): Sql => ({
    query: <T>(text: string, params?: readonly unknown[]) => call({ op: "query", text, params, tx }) as Promise<T[]>,
  });
  return withBackgroundLane({
    kind: "pglite",
    ...sql(),
    async transaction(fn) {
      const tx = (await call({ op: "begin" })) as number;
      let result;
      try {
        result = await fn(sql(tx));
      } catch (err) {
        await call({ op: "end", tx, commit: false });
        throw err;
      }
      await call({ op: "end", tx, commit: true });
      return result;
    },
    exec: async (script) => {
      await call({ op: "exec", script });
    },
    async close() {
      if (stopped) return;
      await call({ op: "close" });
      await worker.terminate();
    },
  }, { yieldToOthers: true });
}
