import { type } from "arktype";
import { API_PATHS } from "../contract/api-paths.ts";
import type { MarkNotificationsReadRequest, RegisterRequest, UpdateClientRequest } from "../contract/api.ts";
import { alarmPage, notificationPreferences } from "../contract/alarms.ts";
import { ALARM_PATHS, type AlarmKind, type AlarmPage, type AlarmStateFilter, type NotificationPreferences } from "../contract/alarms-values.ts";
import { CoreError } from "../contract/core-error.ts";
import { isErrorReason, type ErrorParams, type ErrorReason } from "../contract/error-reasons.ts";
import { client, controller, sensor, unclaimedDevice } from "../contract/entities.ts";
import { ERROR_CODES, type ErrorCode, type FieldError } from "../contract/errors.ts";
import {
  commandLog,
  farmHistory,
  HISTORY_PATHS,
  mcuHistory,
  stateTimeline,
  type CommandLog,
  type CommandOutcome,
  type FarmHistory,
  type HistoryMetric,
  type McuHistory,
  type StateTarget,
  type StateTimeline,
} from "../contract/history.ts";
import { auditPage, createdInvitation, invitation, invitationPreview, member, type AuditKind, type AuditPage, type CreatedInvitation, type Invitation, type InvitationPreview, type Member, type Role } from "../contract/team.ts";
import { alarmNotice, rota, type AlarmNotice, type Rota, type RotaRequest } from "../contract/rota.ts";
import type { CreateInvitationRequest } from "../contract/api.ts";
import { PUSH_PATHS, pushUnsubscribeAnswer, vapidPublicKeyAnswer, type PushSubscriptionRequest } from "../contract/push.ts";

/** A page of a farm's audit trail: its filters and where the previous page ended. */
export interface AuditQuery {
  kind?: AuditKind;
  actor?: string;
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
}


const message = type({ message: "string" });
/** A 204's answer: no body. */
const noContent = type("undefined");
const updatedCount = type({ updated: "number.integer >= 0" });
const loginAnswer = type({ message: "string", client });
const controllerScan = controller.or(unclaimedDevice);
const sensorScan = sensor.or(unclaimedDevice);

/** A span of history: ISO times, `from` inclusive, `to` exclusive. */
export interface HistoryRange {
  from: string;
  to: string;
}
export interface McuHistoryQuery extends HistoryRange {
  metrics?: readonly HistoryMetric[];
  /** Seconds per bucket; the server chooses one when absent. */
  resolution?: number;
}
export interface FarmHistoryQuery extends HistoryRange {
  metric: HistoryMetric;
  resolution?: number;
}
export interface CommandLogQuery {
  from?: string;
  to?: string;
  source?: "user" | "automation";
  outcome?: CommandOutcome;
  target?: StateTarget;
  limit?: number;
  /** The `next_before` of the page before. */
  before?: string;
}

/** One page of the alarm list; every filter optional. */
export interface AlarmQuery {
  state?: AlarmStateFilter;
  farm_id?: number;
  mcu_id?: number;
  kind?: AlarmKind;
  limit?: number;
  /** The `next` of the page before. */
  cursor?: string;
}

/** A query string of the parameters that are set (lists joined by commas), with its "?", or "". */
function search(params: Record<string, string | number | readonly string[] | undefined>): string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    q.set(name, typeof value === "object" ? value.join(",") : String(value));
  }
  const text = q.toString();
  return text ? `?${text}` : "";
}

/**
 * A series whose columns differ in length from its time axis would draw values at the wrong
 * times; such an answer is refused like one that fails its schema.
 */
function checkColumns(path: string, t: readonly number[], columns: Record<string, readonly unknown[]>) {
  for (const [name, column] of Object.entries(columns)) {
    if (column.length !== t.length) throw new CoreError("BAD_RESPONSE", `Unexpected answer from ${path}: ${name} has ${column.length} values for ${t.length} times`);
  }
}

export interface RestClientOptions {
  /** The API base (SPEC §7 {host}); "" is the page's own origin. */
  apiBase: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** A response already requested for this URL (a GET), taken instead of a new request. */
  early?: (url: string) => Promise<Response> | undefined;
}

/** A refusal's precise reason, if it is one this app knows (a newer server's is left to the coarse code), and its values. */
function whyOf(d: { reason?: unknown; params?: unknown } | undefined): { reason: ErrorReason | null; params: ErrorParams } {
  const params: ErrorParams = {};
  if (typeof d?.params === "object" && d.params !== null && !Array.isArray(d.params)) {
    for (const [k, v] of Object.entries(d.params)) if (typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) params[k] = v;
  }
  return { reason: isErrorReason(d?.reason) ? d.reason : null, params };
}

/** The fields a refusal names (`errors` of the error body), keeping only well-formed entries. */
function fieldErrorsOf(errors: unknown): FieldError[] {
  if (!Array.isArray(errors)) return [];
  return errors
    .filter((e): e is FieldError => typeof e === "object" && e !== null && typeof e.path === "string" && typeof e.message === "string")
    .map((e) => {
      const { reason, params } = whyOf(e);
      return { path: e.path, message: e.message, ...(reason ? { reason } : {}), ...(Object.keys(params).length > 0 ? { params } : {}) };
    });
}

/** The code of a failure whose body names none (a proxy's page, an empty body). */
function fallbackCode(status: number): ErrorCode {
  if (status === 401) return "UNAUTHENTICATED";
  return status >= 500 ? "INTERNAL" : "BAD_REQUEST";
}

/**
 * Every call of SPEC §7 (and the session endpoints). Answers are validated against the contract;
 * a failure becomes a CoreError carrying the server's message.
 */
export function createRestClient({ apiBase, fetch: doFetch = globalThis.fetch.bind(globalThis), timeoutMs = 30_000, early }: RestClientOptions) {
  async function call<S extends type.Any>(method: string, path: string, schema: S, body?: unknown): Promise<S["infer"]> {
    return (await request(method, path, schema, body)).value;
  }

  /** The validated answer and the response it came in (for its headers). */
  async function request<S extends type.Any>(method: string, path: string, schema: S, body?: unknown): Promise<{ value: S["infer"]; res: Response }> {
    let res: Response;
    try {
      const taken = method === "GET" ? early?.(apiBase + path) : undefined;
      res = await (taken ??
        doFetch(apiBase + path, {
          method,
          credentials: "include",
          headers: body === undefined ? {} : { "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        }));
    } catch (err) {
      if (err instanceof DOMException && (err.name === "TimeoutError" || err.name === "AbortError")) throw new CoreError("TIMEOUT", "The server did not answer in time");
      throw new CoreError("NETWORK", "Cannot reach the server. Check the connection.");
    }
    const text = await res.text();
    let data: unknown = undefined;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = undefined;
    }
    if (!res.ok) {
      const d = data as { code?: string; message?: unknown; errors?: unknown; reason?: unknown; params?: unknown } | undefined;
      const serverMessage = typeof d?.message === "string" && d.message ? d.message : null;
      const code: ErrorCode = (ERROR_CODES as readonly string[]).includes(d?.code ?? "") ? (d!.code as ErrorCode) : fallbackCode(res.status);
      throw new CoreError(code, serverMessage ?? `Request failed (${res.status})`, res.status, serverMessage, fieldErrorsOf(d?.errors), whyOf(d));
    }
    const out = schema(data);
    if (out instanceof type.errors) throw new CoreError("BAD_RESPONSE", `Unexpected answer from ${path}: ${out.summary}`, res.status);
    return { value: out, res };
  }

  return {
    register: (body: RegisterRequest) => call("POST", API_PATHS.register, type({ message: "string" }), body),
    login: (body: { username: string; password: string }) => call("POST", API_PATHS.login, loginAnswer, body),
    logout: () => call("POST", API_PATHS.logout, message, {}),
    me: () => call("GET", API_PATHS.me, client),
    updateClient: (clientId: number, body: UpdateClientRequest) => call("PUT", API_PATHS.client(clientId), client, body),
    markNotificationsRead: (clientId: number, body: MarkNotificationsReadRequest) => call("PUT", API_PATHS.notificationsRead(clientId), updatedCount, body),
    scanController: (mac: string) => call("GET", API_PATHS.controllerScan(mac), controllerScan),
    scanSensor: (mac: string) => call("GET", API_PATHS.sensorScan(mac), sensorScan),

    /** What the server answers at `path` (a collection's list), checked against `schema`. */
    get: <S extends type.Any>(path: string, schema: S): Promise<S["infer"]> => call("GET", path, schema),
    /** The first `limit` items of the list at `path`, and how many there are in all (null if the server did not say). */
    async head<S extends type.Any>(path: string, schema: S, limit: number): Promise<{ items: S["infer"]; total: number | null }> {
      const { value, res } = await request("GET", `${path}${path.includes("?") ? "&" : "?"}limit=${limit}`, schema);
      const total = Number.parseInt(res.headers.get("x-total-count") ?? "", 10);
      return { items: value, total: Number.isFinite(total) ? total : null };
    },
    /** A change (a collection's mutation), its answer checked against `schema`. */
    send: <S extends type.Any>(method: "POST" | "PUT" | "DELETE", path: string, schema: S, body?: unknown): Promise<S["infer"]> => call(method, path, schema, body),

    async mcuHistory(mcuId: number, { from, to, metrics, resolution }: McuHistoryQuery): Promise<McuHistory> {
      const path = HISTORY_PATHS.mcuHistory(mcuId) + search({ from, to, metrics, resolution });
      const answer = await call("GET", path, mcuHistory);
      for (const [metric, s] of Object.entries(answer.series)) checkColumns(path, answer.t, { [`${metric}.min`]: s.min, [`${metric}.avg`]: s.avg, [`${metric}.max`]: s.max, [`${metric}.count`]: s.count });
      return answer as McuHistory;
    },
    async farmHistory(farmId: number, { from, to, metric, resolution }: FarmHistoryQuery): Promise<FarmHistory> {
      const path = HISTORY_PATHS.farmHistory(farmId) + search({ metric, from, to, resolution });
      const answer = await call("GET", path, farmHistory);
      checkColumns(path, answer.t, Object.fromEntries(answer.mcus.flatMap((m) => [[m.name, m.avg], [`${m.name}.count`, m.count]])));
      return answer;
    },
    mcuTimeline: (mcuId: number, { from, to }: HistoryRange): Promise<StateTimeline> => call("GET", HISTORY_PATHS.timeline(mcuId) + search({ from, to }), stateTimeline),
    commandLog: (mcuId: number, query: CommandLogQuery): Promise<CommandLog> => call("GET", HISTORY_PATHS.commands(mcuId) + search({ ...query }), commandLog),

    alarms: (query: AlarmQuery): Promise<AlarmPage> => call("GET", ALARM_PATHS.alarms + search({ ...query }), alarmPage),
    notificationPreferences: (): Promise<NotificationPreferences> => call("GET", ALARM_PATHS.preferences, notificationPreferences),
    saveNotificationPreferences: (body: NotificationPreferences): Promise<NotificationPreferences> => call("PUT", ALARM_PATHS.preferences, notificationPreferences, body),

    // Farm teams: a farm's members, invitations, on-call rota and audit trail, and an alarm's calls.
    farmMembers: (farmId: number): Promise<Member[]> => call("GET", API_PATHS.farmMembers(farmId), member.array()),
    changeMemberRole: (farmId: number, clientId: number, role: Role): Promise<Member> => call("PUT", API_PATHS.farmMember(farmId, clientId), member, { role }),
    removeMember: (farmId: number, clientId: number): Promise<{ message: string }> => call("DELETE", API_PATHS.farmMember(farmId, clientId), message),
    farmInvitations: (farmId: number): Promise<Invitation[]> => call("GET", API_PATHS.farmInvitations(farmId), invitation.array()),
    invite: (farmId: number, body: CreateInvitationRequest): Promise<CreatedInvitation> => call("POST", API_PATHS.farmInvitations(farmId), createdInvitation, body),
    revokeInvitation: (farmId: number, invitationId: number): Promise<Invitation> => call("DELETE", API_PATHS.farmInvitation(farmId, invitationId), invitation),
    previewInvitation: (code: string): Promise<InvitationPreview> => call("GET", API_PATHS.invitationPreview(code), invitationPreview),
    farmRota: (farmId: number): Promise<Rota> => call("GET", API_PATHS.farmRota(farmId), rota),
    saveFarmRota: (farmId: number, body: RotaRequest): Promise<Rota> => call("PUT", API_PATHS.farmRota(farmId), rota, body),
    farmAudit: (farmId: number, query: AuditQuery): Promise<AuditPage> => call("GET", API_PATHS.farmAudit(farmId) + search({ ...query }), auditPage),
    alarmNotices: (alarmId: number): Promise<AlarmNotice[]> => call("GET", API_PATHS.alarmNotices(alarmId), alarmNotice.array()),

    // Web Push: the server's public key, and a browser's subscription stored or forgotten for the signed-in client.
    pushVapidPublicKey: async (): Promise<string> => (await call("GET", PUSH_PATHS.vapidPublicKey, vapidPublicKeyAnswer)).public_key,
    savePushSubscription: async (body: PushSubscriptionRequest): Promise<void> => void (await call("PUT", PUSH_PATHS.subscription, noContent, body)),
    forgetPushSubscription: async (endpoint: string): Promise<boolean> => (await call("DELETE", PUSH_PATHS.subscription, pushUnsubscribeAnswer, { endpoint })).removed,
  };
}

export type RestClient = ReturnType<typeof createRestClient>;
