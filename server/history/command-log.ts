import type { CommandOutcome, StateTarget } from "../../src/contract/history.ts";
import type { Database } from "../db/database.ts";
import { commandLogRepo, type CommandLogRow } from "./command-log-repo.ts";
import { writeWithPartitions } from "./partitions.ts";
import { USER_COMMAND_WINDOW_MS } from "./state-events-repo.ts";

/** A command sent from the app, as the gateway sends it. */
export interface SentCommand {
  commandId: string;
  mcuId: number;
  clientId: number | null;
  /** The sender's username at the time. */
  actor: string | null;
  target: StateTarget;
  type: "auto" | "status";
  onOff: boolean;
  /** epoch ms */
  at: number;
}

/** What became of a command: never `pending` (that is before), never `reported` (the automation's). */
export type FinalOutcome = Exclude<CommandOutcome, "pending" | "reported">;

/** Where the gateway tells what it did with a command (the write side of the command log). */
export interface CommandRecorder {
  sent(command: SentCommand): void;
  answered(commandId: string, outcome: FinalOutcome, reason: string | null, atMs: number): void;
}

/**
 * The command log's write side: each command is written as pending when sent and again with its
 * outcome, both off the command's path (batched, every `flush`). A command answered before its
 * pending row was written is written once, with its outcome. A row is upserted by its key, the
 * command's id and the time it was sent (the table is partitioned by that time; this node keeps
 * both until the outcome is written): a final outcome is never overwritten, except the time-out
 * another node's history job gave a command it took for abandoned (ABANDONED_REASON), which the
 * real outcome replaces. A write that meets a missing month creates its partition and runs again.
 * A write that fails is tried again at the next flush (at most `maxQueued` rows wait; the oldest
 * go first).
 */
export function createCommandLog({ maxQueued = 50_000 } = {}) {
  /** Rows to write: new, or with a new outcome. */
  let dirty = new Map<string, CommandLogRow>();
  /** Commands still waiting for their outcome (kept to write it). */
  const open = new Map<string, CommandLogRow>();
  /** Per MCU and controller: the last user command for a status, to tell the user's changes from the automation's. */
  const lastStatusCommand = new Map<string, { commandId: string; onOff: boolean; at: number }>();
  let dropped = 0;

  const recorder: CommandRecorder = {
    sent(command) {
      const entry: CommandLogRow = { ...command, outcome: "pending", reason: null, answeredAt: null };
      open.set(command.commandId, entry);
      dirty.set(command.commandId, entry);
      if (command.type === "status") lastStatusCommand.set(`${command.mcuId}:${command.target}`, { commandId: command.commandId, onOff: command.onOff, at: command.at });
    },
    answered(commandId, outcome, reason, atMs) {
      const entry = open.get(commandId);
      if (!entry) return;
      open.delete(commandId);
      entry.outcome = outcome;
      entry.reason = reason;
      entry.answeredAt = atMs;
      dirty.set(commandId, entry);
      const key = `${entry.mcuId}:${entry.target}`;
      if (outcome !== "acknowledged" && lastStatusCommand.get(key)?.commandId === commandId) lastStatusCommand.delete(key);
    },
  };

  return {
    recorder,

    /** A user's command sent from this node asked `target` of `mcuId` for `status` just before `atMs`. */
    userCaused(mcuId: number, target: StateTarget, status: boolean, atMs: number): boolean {
      const last = lastStatusCommand.get(`${mcuId}:${target}`);
      return last !== undefined && last.onOff === status && atMs - last.at <= USER_COMMAND_WINDOW_MS;
    },

    /** Writes the rows waiting; answers how many. */
    async flush(db: Database, nowMs: number): Promise<number> {
      for (const [key, last] of lastStatusCommand) if (nowMs - last.at > USER_COMMAND_WINDOW_MS) lastStatusCommand.delete(key);
      if (dirty.size === 0) return 0;
      const rows = [...dirty.values()].map((e) => ({ ...e }));
      dirty = new Map();
      const log = commandLogRepo(db);
      try {
        // Commands are written within seconds of being sent: none is past retention (no cut-off).
        await writeWithPartitions(db, "command_log", rows, (r) => r.at, -Infinity, (part) => log.upsert(part));
        return rows.length;
      } catch (err) {
        // Back in the queue, unless a newer state of the same command is already there.
        const retry = new Map<string, CommandLogRow>();
        for (const r of rows) if (!dirty.has(r.commandId)) retry.set(r.commandId, open.get(r.commandId) ?? r);
        for (const [id, e] of dirty) retry.set(id, e);
        const over = retry.size - maxQueued;
        if (over > 0) {
          let n = 0;
          for (const id of retry.keys()) {
            if (n++ >= over) break;
            retry.delete(id);
          }
          dropped += over;
        }
        dirty = retry;
        throw err;
      }
    },

    /** Rows given up on because too many waited while the database was unreachable. */
    dropped: () => dropped,
    waiting: () => dirty.size,
  };
}

export type CommandLog = ReturnType<typeof createCommandLog>;
