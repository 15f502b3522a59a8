import type { FastifyPluginAsync, FastifyRequest } from "fastify";
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
import type { AlarmCursor } from "../../db/alerts-repo.ts";
import { notFound, refusal } from "../../errors.ts";
import { badCursor, encodeCursor, parseCursor, queryOf } from "../../history/history-params.ts";
import { bodyId, needs, OWN } from "../farm-access.ts";
import { idParam, parse } from "../validate.ts";
import { visibleTo } from "../visible.ts";

const farmIn = (req: FastifyRequest) => {
  const farm = bodyId(req, "farm_id");
  return farm === null ? null : { farm };
};
/** The farm or MCU an alarm list is filtered to, when the query names a well-formed one. */
const filterTarget = (req: FastifyRequest) => {
  const q = req.query as Record<string, unknown>;
  const id = (raw: unknown) => (typeof raw === "string" && /^\d{1,9}$/.test(raw) ? Number(raw) : null);
  const farm = id(q.farm_id);
  const mcu = id(q.mcu_id);
  return farm !== null ? { farm } : mcu !== null ? { mcu } : null;
};

const LIST_PARAMS = ["state", "farm_id", "mcu_id", "kind", "limit", "cursor"] as const;
const DEFAULT_LIMIT = 50;

/**
 * The list's cursor as the app sees it: opaque. It is the command log's kind of keyset cursor
 * (history-params.ts), a time in microseconds and an id: the last alarm's opening and its id.
 */
const encodeAlarmCursor = (c: AlarmCursor): string => encodeCursor({ atMicros: c.openedMicros, commandId: String(c.alarmId) });

function decodeAlarmCursor(value: string): AlarmCursor {
  const { atMicros, commandId } = parseCursor(value, "cursor", "next")!;
  const alarmId = /^\d{1,10}$/.test(commandId) ? Number(commandId) : NaN;
  if (!(alarmId >= 1 && alarmId <= 2_147_483_647)) throw badCursor("cursor", "next");
  return { openedMicros: atMicros, alarmId };
}

/** Alarms (list, acknowledge one or a farm's) and notification preferences, for the signed-in client only. */
export const alarmRoutes: FastifyPluginAsync = async (app) => {
  const { alerts: alarms, preferences, farms, mcus } = app.repos;

  /** The client's own farm or MCU named by a filter: another client's is 404, as a missing one is (as the history routes do). */
  async function ownFilterTarget(clientId: number, what: "Farm" | "MCU", id: number): Promise<void> {
    const own = what === "Farm" ? await farms.exists(clientId, id) : await mcus.exists(clientId, id);
    if (!own) throw notFound(what);
  }

  // Filtered to a farm or an MCU: that one's account; else the person's own and the farms they are a member of.
  app.get(ALARM_PATHS.alarms, needs("see", filterTarget), async (req): Promise<AlarmPage> => {
    const clientId = req.acting.tenant;
    const q = parse(alarmListQuery, queryOf(req.query, LIST_PARAMS));
    const memberFarms =
      q.farm_id === undefined && q.mcu_id === undefined ? (await visibleTo(app, clientId)).accounts.flatMap((a) => (a.farms ? [...a.farms] : [])) : undefined;
    const limit = q.limit ?? DEFAULT_LIMIT;
    const after = q.cursor === undefined ? undefined : decodeAlarmCursor(q.cursor);
    if (q.farm_id !== undefined) await ownFilterTarget(clientId, "Farm", q.farm_id);
    if (q.mcu_id !== undefined) await ownFilterTarget(clientId, "MCU", q.mcu_id);
    const rows = await alarms.list(clientId, { state: q.state ?? "active", farmId: q.farm_id, mcuId: q.mcu_id, kind: q.kind, memberFarms }, limit + 1, after);
    const page = rows.slice(0, limit);
    return { alarms: page.map((r) => r.alarm), next: rows.length > limit ? encodeAlarmCursor(page[page.length - 1]!.cursor) : null };
  });

  app.post<{ Params: { alarm_id: string } }>(
    ALARM_PATHS.acknowledge.pattern,
    needs("acknowledgeAlarms", (req) => ({ alarm: idParam((req.params as { alarm_id: string }).alarm_id, "Alarm") })),
    async (req): Promise<Alarm> => {
    const clientId = req.acting.tenant;
    const alarmId = idParam(req.params.alarm_id, "Alarm");
    const { comment } = parse(acknowledgeAlarmRequest, req.body ?? {});
    const result = await alarms.acknowledge(clientId, alarmId, comment ?? null, app.now(), req.signedIn.clientId);
    if (!result) throw notFound("Alarm");
    if ("resolved" in result) throw refusal("alarm_resolved", "alarm_resolved", "This alarm has resolved already: its condition cleared, so there is nothing to acknowledge");
    if (result.changed) app.events.emit("alarmChanged", clientId, result.alarm);
    return result.alarm;
    },
  );

  app.post(ALARM_PATHS.acknowledgeFarm, needs("acknowledgeAlarms", (req) => farmIn(req)), async (req): Promise<FarmAcknowledgement> => {
    const clientId = req.acting.tenant;
    const { farm_id, comment } = parse(acknowledgeFarmAlarmsRequest, req.body ?? {});
    await ownFilterTarget(clientId, "Farm", farm_id);
    const acknowledged = await alarms.acknowledgeFarm(clientId, farm_id, comment ?? null, app.now(), req.signedIn.clientId);
    for (const alarm of acknowledged) app.events.emit("alarmChanged", clientId, alarm);
    return { acknowledged };
  });

  app.get(ALARM_PATHS.preferences, OWN, async (req): Promise<NotificationPreferences> => {
    const { clientId } = req.signedIn;
    return preferences.get(clientId);
  });

  app.put(ALARM_PATHS.preferences, OWN, async (req): Promise<NotificationPreferences> => {
    const { clientId } = req.signedIn;
    const body = parse(notificationPreferencesRequest, req.body);
    const stored = await preferences.put(clientId, body, app.now());
    app.events.emit("preferencesChanged", clientId);
    return stored;
  });
};
