/**
 * The database thread of `openPglite({ thread: true })`: PGlite runs here, so that its work
 * (a query's WASM, a checkpoint writing pages, a large list) never holds up the event loop that
 * serves devices, sockets and requests. Requests come from the main thread one message each and
 * are answered by id; PGlite's own lock orders them (a query outside an open transaction waits
 * for it, as in one process).
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import type { ThreadReply, ThreadRequest } from "./pglite-thread.ts";

const port = parentPort!;
const { dataDir } = workerData as { dataDir?: string };

/** What an error carries to the main thread: its message and own fields (code, constraint, detail …). */
function errorFields(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const fields: Record<string, unknown> = { message: err.message, name: err.name };
  for (const [k, v] of Object.entries(err)) if (v === null || ["string", "number", "boolean"].includes(typeof v)) fields[k] = v;
  return fields;
}

const open = new Map<number, { tx: Transaction; finish(commit: boolean): Promise<void> }>();
let nextTx = 1;

async function begin(db: PGlite): Promise<number> {
  const id = nextTx++;
  return new Promise<number>((resolve, reject) => {
    let end!: (commit: boolean) => void;
    let started = false;
    const done = db.transaction(
      (tx) =>
        new Promise<void>((commit, rollback) => {
          started = true;
          end = (ok) => (ok ? commit() : rollback(new RollBack()));
          open.set(id, {
            tx,
            finish: async (ok) => {
              end(ok);
              try {
                await done;
              } catch (err) {
                if (!(err instanceof RollBack)) throw err;
              } finally {
                open.delete(id);
              }
            },
          });
          resolve(id);
        }),
    );
    done.catch((err: unknown) => {
      if (!started) reject(err);
    });
  });
}

class RollBack extends Error {}

async function run(db: PGlite, m: ThreadRequest): Promise<unknown> {
  switch (m.op) {
    case "query": {
      const q = m.tx === undefined ? db : open.get(m.tx)?.tx;
      if (!q) throw new Error(`Transaction ${m.tx} is not open`);
      return (await q.query(m.text, m.params as unknown[] | undefined)).rows;
    }
    case "exec":
      await db.exec(m.script);
      return undefined;
    case "begin":
      return begin(db);
    case "end": {
      const t = open.get(m.tx);
      if (!t) throw new Error(`Transaction ${m.tx} is not open`);
      await t.finish(m.commit);
      return undefined;
    }
    case "close":
      await db.close();
      return undefined;
  }
}

try {
  const db = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
  port.on("message", (m: ThreadRequest) => {
    run(db, m).then(
      (value) => port.postMessage({ id: m.id, ok: true, value } satisfies ThreadReply),
      (err: unknown) => port.postMessage({ id: m.id, ok: false, error: errorFields(err) } satisfies ThreadReply),
    );
  });
  port.postMessage({ id: 0, ok: true, value: "ready" } satisfies ThreadReply);
} catch (err) {
  port.postMessage({ id: 0, ok: false, error: errorFields(err) } satisfies ThreadReply);
}
