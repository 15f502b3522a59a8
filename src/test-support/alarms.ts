import type { Alarm } from "../contract/alarms-values.ts";

/**
 * An alarm as the API and the `alarm` socket event carry it, for tests: alarm `id` of MCU `mcuId`,
 * open, about CO2; `over` replaces fields. Not part of the app (only tests import it).
 */
export const alarmRecord = (id: number, mcuId: number, over: Partial<Alarm> = {}): Alarm => ({
  alarm_id: id,
  kind: "co2_high",
  state: "open",
  mcu_id: mcuId,
  mac: "02:4D:46:10:00:01",
  mcu_name: `Room ${mcuId}`,
  farm_id: 1,
  farm_name: "Farm 1",
  title: `Room ${mcuId}: CO2 high`,
  body: "CO2 is 1400 ppm, above 1100 ppm.",
  metric: "co2",
  opened_value: 1400,
  worst_value: 1400,
  opened_at: "2026-11-23T10:00:00.000Z",
  acknowledged_at: null,
  acknowledged_by: null,
  ack_comment: null,
  resolved_at: null,
  ...over,
});

/** The same alarm acknowledged by "demo" with a comment, and resolved. */
export const acknowledgedAlarm = (a: Alarm): Alarm => ({ ...a, state: "acknowledged", acknowledged_at: "2026-11-23T10:05:00.000Z", acknowledged_by: "demo", ack_comment: "Door closed" });
export const resolvedAlarm = (a: Alarm): Alarm => ({ ...a, state: "resolved", resolved_at: "2026-11-23T10:20:00.000Z" });
