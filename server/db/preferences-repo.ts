import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences } from "../../src/contract/alarms-values.ts";
import type { Sql } from "./database.ts";

interface PreferencesRow {
  in_app_device_status: boolean;
  in_app_environmental: boolean;
  in_app_battery: boolean;
  push_emergency: boolean;
  quiet_hours_enabled: boolean;
  quiet_hours_start: string;
  quiet_hours_end: string;
  time_zone: string;
}

const COLUMNS = "in_app_device_status, in_app_environmental, in_app_battery, push_emergency, quiet_hours_enabled, quiet_hours_start, quiet_hours_end, time_zone";

const preferencesOf = (r: PreferencesRow): NotificationPreferences => ({
  in_app: { device_status: r.in_app_device_status, environmental: r.in_app_environmental, battery: r.in_app_battery },
  push: { emergency: r.push_emergency },
  quiet_hours: { enabled: r.quiet_hours_enabled, start: r.quiet_hours_start, end: r.quiet_hours_end, time_zone: r.time_zone },
});

/** A client's notification preferences (migration 008): the defaults until the client stores some. */
export function preferencesRepo(sql: Sql) {
  return {
    async get(clientId: number): Promise<NotificationPreferences> {
      const [row] = await sql.query<PreferencesRow>(`select ${COLUMNS} from notification_preferences where client_id = $1`, [clientId]);
      return row ? preferencesOf(row) : DEFAULT_NOTIFICATION_PREFERENCES;
    },

    /** Stores them whole; answers what is stored. */
    async put(clientId: number, p: NotificationPreferences, now: Date): Promise<NotificationPreferences> {
      const [row] = await sql.query<PreferencesRow>(
        `insert into notification_preferences (client_id, ${COLUMNS}, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         on conflict (client_id) do update set
           in_app_device_status = excluded.in_app_device_status, in_app_environmental = excluded.in_app_environmental,
           in_app_battery = excluded.in_app_battery, push_emergency = excluded.push_emergency,
           quiet_hours_enabled = excluded.quiet_hours_enabled, quiet_hours_start = excluded.quiet_hours_start,
           quiet_hours_end = excluded.quiet_hours_end, time_zone = excluded.time_zone, updated_at = excluded.updated_at
         returning ${COLUMNS}`,
        [
          clientId,
          p.in_app.device_status,
          p.in_app.environmental,
          p.in_app.battery,
          p.push.emergency,
          p.quiet_hours.enabled,
          p.quiet_hours.start,
          p.quiet_hours.end,
          p.quiet_hours.time_zone,
          now,
        ],
      );
      return preferencesOf(row!);
    },
  };
}

export interface PreferencesCache {
  /** The client's preferences, read from the database at most once per `ttlMs` (concurrent reads share one query). */
  get(clientId: number): Promise<NotificationPreferences>;
  /** Forgets a client's copy (this node stored new preferences). */
  invalidate(clientId: number): void;
}

/**
 * Preferences as the alarm engine reads them: it needs them only when an alarm opens or resolves,
 * but then for every MCU of a client that changes at once (a gateway down: the whole fleet goes
 * offline), so they are kept for a short while. Another server node's change is seen within `ttlMs`.
 */
export function createPreferencesCache(sql: Sql, { ttlMs = 30_000, now = () => Date.now() } = {}): PreferencesCache {
  const repo = preferencesRepo(sql);
  const cache = new Map<number, { value: Promise<NotificationPreferences>; until: number }>();
  return {
    get(clientId) {
      const t = now();
      const held = cache.get(clientId);
      if (held && held.until > t) return held.value;
      // Copies of clients not heard from for a while go, so the map follows the clients that are active.
      if (cache.size >= 1000) for (const [id, e] of cache) if (e.until <= t) cache.delete(id);
      const entry = { value: repo.get(clientId), until: t + ttlMs };
      cache.set(clientId, entry);
      // A failed read is not kept: the next call tries again.
      entry.value.catch(() => cache.get(clientId) === entry && cache.delete(clientId));
      return entry.value;
    },
    invalidate(clientId) {
      cache.delete(clientId);
    },
  };
}
