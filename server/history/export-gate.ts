import type { FastifyReply } from "fastify";
import type { ErrorParams, ErrorReason } from "../../src/contract/error-reasons.ts";
import { tryAgainIn } from "../auth/login-guard.ts";

export interface ExportLimits {
  /** CSV exports one client may have streaming at once. */
  perClient: number;
  /** CSV exports this server node streams at once, every client together. */
  perNode: number;
}

export const DEFAULT_EXPORT_LIMITS: ExportLimits = { perClient: 2, perNode: 8 };

/**
 * An export that is refused waits about this long: a year of one MCU streams in a few seconds, so
 * by then a slot has usually come free.
 */
const RETRY_AFTER_MS = 10_000;

/**
 * Counts the CSV exports streaming on this node, per client and in all. An export takes its slot
 * synchronously (no await between the count and the check, so concurrent requests cannot all slip
 * under the limit) and gives it back when its response closes: finished, failed, or the client
 * gone. Each export's database work is also queued behind interactive queries
 * (`Database.background`); the cap keeps a node's queue of exports, and the time each one takes,
 * bounded.
 */
export function createExportGate(limits: ExportLimits) {
  const byClient = new Map<number, number>();
  let running = 0;

  function refuse(reply: FastifyReply, why: string, reason: ErrorReason, params?: ErrorParams): never {
    reply.header("Retry-After", String(RETRY_AFTER_MS / 1000));
    throw tryAgainIn(RETRY_AFTER_MS, why, reason, params);
  }

  return {
    /** Takes a slot for this client's export on `reply`, or throws a 429 with Retry-After. */
    enter(clientId: number, reply: FastifyReply): void {
      const mine = byClient.get(clientId) ?? 0;
      if (mine >= limits.perClient) {
        refuse(reply, `You already have ${limits.perClient === 1 ? "an export" : `${limits.perClient} exports`} running.`, "exports_running", { count: limits.perClient });
      }
      if (running >= limits.perNode) refuse(reply, "The server is busy with other exports.", "exports_busy");
      byClient.set(clientId, mine + 1);
      running++;
      let left = false;
      reply.raw.once("close", () => {
        if (left) return;
        left = true;
        running--;
        const n = (byClient.get(clientId) ?? 1) - 1;
        if (n > 0) byClient.set(clientId, n);
        else byClient.delete(clientId);
      });
    },
    running: () => running,
  };
}

export type ExportGate = ReturnType<typeof createExportGate>;
