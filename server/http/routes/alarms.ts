import type { FastifyInstance } from "fastify";
import {
  acknowledgeAlarmRequest,
  acknowledgeFarmAlarmsRequest,
  alarmListQuery,
  ALARM_PATHS,
  notificationPreferencesRequest,
  type Alarm,
  type AlarmPage,
  type FarmAcknowledgement,
  type NotificationPreferences,
} from "../../../src/contract/alarms.ts";
import { alertsRepo, type AlarmCursor } from "../../db/alerts-repo.ts";
import { preferencesRepo } from "../../db/preferences-repo.ts";
import { AppError, notFound } from "../../errors.ts";
import { encodeCursor, parseCursor, queryOf } from "../../history/history-params.ts";
import type { RouteContext } from "../context.ts";
import { idParam, parse } from "../validate.ts";

const LIST_PARAMS = ["state", "farm_id", "mcu_id", "kind", "limit", "cursor"] as const;
const DEFAULT_LIMIT = 50;

const BAD_CURSOR = "cursor must be the next of a previous page";

/**
 * The list's cursor as the app sees it: opaque. It is the command log's kind of keyset cursor
 * (history-params.ts), a time in microseconds and an id: the last alarm's opening and its id.
 */
const encodeAlarmCursor = (c: AlarmCursor): string => encodeCursor({ atMicros: c.openedMicros, commandId: String(c.alarmId) });

function decodeAlarmCursor(value: string): AlarmCursor {
  const { atMicros, commandId } = parseCursor(value, BAD_CURSOR)!;
  const alarmId = /^\d{1,10}$/.test(commandId) ? Number(commandId) : NaN;
  if (!(alarmId >= 1 && alarmId <= 2_147_483_647)) throw new AppError("VALIDATION", BAD_CURSOR);
  return { openedMicros: atMicros, alarmId };
}

/** Alarms (list, acknowledge one or a farm's) and notification preferences, for the signed-in client only. */
export function alarmRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const alarms = alertsRepo(ctx.db);
  const preferences = preferencesRepo(ctx.db);

  /** The client's own farm or MCU named by a filter: another client's is 404, as a missing one is (as the history routes do). */
  async function ownFilterTarget(clientId: number, table: "farms" | "mcus", id: number): Promise<void> {
    const column = table === "farms" ? "farm_id" : "mcu_id";
    const [row] = await ctx.db.query(`select 1 from ${table} where client_id = $1 and ${column} = $2`, [clientId, id]);
    if (!row) throw notFound(table === "farms" ? "Farm" : "MCU");
  }

  app.get(ALARM_PATHS.alarms, async (req): Promise<AlarmPage> => {
    const { clientId } = await ctx.sessions.require(req);
    const q = parse(alarmListQuery, queryOf(req.query, LIST_PARAMS));
    const limit = q.limit ?? DEFAULT_LIMIT;
    const after = q.cursor === undefined ? undefined : decodeAlarmCursor(q.cursor);
    if (q.farm_id !== undefined) await ownFilterTarget(clientId, "farms", q.farm_id);
    if (q.mcu_id !== undefined) await ownFilterTarget(clientId, "mcus", q.mcu_id);
    const rows = await alarms.list(clientId, { state: q.state ?? "active", farmId: q.farm_id, mcuId: q.mcu_id, kind: q.kind }, limit + 1, after);
    const page = rows.slice(0, limit);
    return { alarms: page.map((r) => r.alarm), next: rows.length > limit ? encodeAlarmCursor(page[page.length - 1]!.cursor) : null };
  });

  app.post<{ Params: { alarm_id: string } }>("/api/alarms/:alarm_id/acknowledge", async (req): Promise<Alarm> => {
    const { clientId } = await ctx.sessions.require(req);
    const alarmId = idParam(req.params.alarm_id, "Alarm");
    const { comment } = parse(acknowledgeAlarmRequest, req.body ?? {});
    const result = await alarms.acknowledge(clientId, alarmId, comment ?? null, ctx.now());
    if (!result) throw notFound("Alarm");
    if ("resolved" in result) throw new AppError("alarm_resolved", "This alarm has resolved already: its condition cleared, so there is nothing to acknowledge");
    if (result.changed) ctx.events.alarmChanged?.(clientId, result.alarm);
    return result.alarm;
  });

  app.post(ALARM_PATHS.acknowledgeFarm, async (req): Promise<FarmAcknowledgement> => {
    const { clientId } = await ctx.sessions.require(req);
    const { farm_id, comment } = parse(acknowledgeFarmAlarmsRequest, req.body ?? {});
    await ownFilterTarget(clientId, "farms", farm_id);
    const acknowledged = await alarms.acknowledgeFarm(clientId, farm_id, comment ?? null, ctx.now());
    for (const alarm of acknowledged) ctx.events.alarmChanged?.(clientId, alarm);
    return { acknowledged };
  });

  app.get(ALARM_PATHS.preferences, async (req): Promise<NotificationPreferences> => {
    const { clientId } = await ctx.sessions.require(req);
    return preferences.get(clientId);
  });

  app.put(ALARM_PATHS.preferences, async (req): Promise<NotificationPreferences> => {
    const { clientId } = await ctx.sessions.require(req);
    const body = parse(notificationPreferencesRequest, req.body);
    const stored = await preferences.put(clientId, body, ctx.now());
    ctx.events.preferencesChanged?.(clientId);
    return stored;
  });
}
