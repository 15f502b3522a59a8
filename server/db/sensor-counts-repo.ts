import type { Sql } from "./database.ts";

/** What an MCU is expected to report of each sensor group of a reading (DHT, SOIL_TEMP, CO2, MOISTURE). */
export interface SensorCounts {
  /** Sensors of the group's type in the MCU's sensors list, by group. */
  registered: Record<string, number>;
  /** The most sensors of each group the MCU has reported (migration 015), by group. */
  reported: Record<string, number>;
}

/**
 * The registered type whose sensors report in each group of a reading (SENSOR_TYPES to
 * reading-groups.ts): a Humidity sensor is a DHT, which also gives the room temperature.
 */
const GROUP_OF_TYPE = `case s.type when 'Humidity' then 'DHT' when 'Soil_temp' then 'SOIL_TEMP' when 'CO2' then 'CO2' when 'Moisture' then 'MOISTURE' end`;

/** The sensor counts the alarm engine judges a reading's counts against (server/alerts/sensor-health.ts). */
export function sensorCountsRepo(sql: Sql) {
  return {
    /** Several MCUs' counts in one query, by MCU id (an MCU that is gone is absent). */
    async countsOf(mcuIds: readonly number[]): Promise<Map<number, SensorCounts>> {
      const rows = await sql.query<{ mcu_id: number; reported: Record<string, number> | null; registered: Record<string, number> | null }>(
        `select m.mcu_id, m.reported_sensors as reported,
           (select jsonb_object_agg(g.grp, g.n) from (select ${GROUP_OF_TYPE} as grp, count(*)::int as n from sensors s where s.mcu_id = m.mcu_id group by 1) g) as registered
         from mcus m where m.mcu_id = any($1::int[])`,
        [mcuIds],
      );
      return new Map(rows.map((r) => [r.mcu_id, { registered: r.registered ?? {}, reported: r.reported ?? {} }]));
    },

    /** Raises the most sensors of `group` the MCU has reported to `count` (never lowers it: another node may have kept more). */
    async keepReported(mcuId: number, group: string, count: number): Promise<void> {
      await sql.query(
        `update mcus set reported_sensors = coalesce(reported_sensors, '{}'::jsonb) || jsonb_build_object($2::text, greatest(coalesce((reported_sensors ->> $2::text)::int, 0), $3::int))
         where mcu_id = $1`,
        [mcuId, group, count],
      );
    },
  };
}
