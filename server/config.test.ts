import { describe, expect, it } from "vitest";
import { readConfig } from "./config.ts";

describe("server configuration from the environment", () => {
  it("keeps minute rollups 30 days and hourly ones 730 unless told otherwise", () => {
    expect(readConfig({})).toMatchObject({ historyMinuteRetentionDays: 30, historyHourRetentionDays: 730 });
    expect(readConfig({ HISTORY_MINUTE_RETENTION_DAYS: "7", HISTORY_HOUR_RETENTION_DAYS: "90" })).toMatchObject({ historyMinuteRetentionDays: 7, historyHourRetentionDays: 90 });
  });

  it("refuses a history retention that is no whole number of days in range, or hours kept for less time than minutes", () => {
    expect(() => readConfig({ HISTORY_MINUTE_RETENTION_DAYS: "0" })).toThrow('HISTORY_MINUTE_RETENTION_DAYS must be a whole number from 1 to 3650 (was "0")');
    expect(() => readConfig({ HISTORY_MINUTE_RETENTION_DAYS: "1.5" })).toThrow("HISTORY_MINUTE_RETENTION_DAYS must be a whole number");
    expect(() => readConfig({ HISTORY_HOUR_RETENTION_DAYS: "two years" })).toThrow('HISTORY_HOUR_RETENTION_DAYS must be a whole number from 1 to 36500 (was "two years")');
    expect(() => readConfig({ HISTORY_MINUTE_RETENTION_DAYS: "60", HISTORY_HOUR_RETENTION_DAYS: "30" })).toThrow(
      "HISTORY_HOUR_RETENTION_DAYS (30) must be at least HISTORY_MINUTE_RETENTION_DAYS (60)",
    );
  });

  it("times alarms at a 5-minute grace and a 2-minute hold unless told otherwise", () => {
    expect(readConfig({})).toMatchObject({ alarmGraceMs: 300_000, alarmHoldMs: 120_000 });
    expect(readConfig({ ALARM_GRACE_SECONDS: "5", ALARM_HOLD_SECONDS: "0" })).toMatchObject({ alarmGraceMs: 5000, alarmHoldMs: 0 });
    expect(() => readConfig({ ALARM_HOLD_SECONDS: "2m" })).toThrow('ALARM_HOLD_SECONDS must be a whole number from 0 to 86400 (was "2m")');
  });
});
