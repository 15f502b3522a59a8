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
  it("trusts no proxy unless TRUST_PROXY says which: an https origin alone changes nothing", () => {
    expect(readConfig({})).toMatchObject({ trustProxy: false });
    expect(readConfig({ PUBLIC_ORIGIN: "https://farm.example.com" })).toMatchObject({ trustProxy: false });
    expect(readConfig({ TRUST_PROXY: "0" })).toMatchObject({ trustProxy: false });
    // A number is hops, a string the proxies' addresses (as Fastify's trustProxy takes them).
    expect(readConfig({ TRUST_PROXY: "1" })).toMatchObject({ trustProxy: 1 });
    expect(readConfig({ TRUST_PROXY: "127.0.0.1" })).toMatchObject({ trustProxy: "127.0.0.1" });
    expect(readConfig({ TRUST_PROXY: " 10.0.0.0/8, ::1 ,loopback,192.168.1.0/255.255.255.0" })).toMatchObject({ trustProxy: "10.0.0.0/8,::1,loopback,192.168.1.0/255.255.255.0" });
  });

  it("refuses a TRUST_PROXY that is neither hops nor addresses, and trusting every hop", () => {
    for (const bad of ["true", "yes", "127.0.0.1,", "10.0.0.0/33", "300.1.1.1", "farm-proxy", "17", "-1", "1.5"]) {
      expect(() => readConfig({ TRUST_PROXY: bad }), bad).toThrow(/^TRUST_PROXY must be a number of proxy hops/);
    }
  });

  it("reads METRICS_PORT and METRICS_TOKEN, and refuses a short or unsendable token", () => {
    expect(readConfig({})).toMatchObject({ metricsPort: undefined, metricsToken: undefined });
    expect(readConfig({ METRICS_PORT: "9464", METRICS_TOKEN: "0123456789abcdef0123" })).toMatchObject({ metricsPort: 9464, metricsToken: "0123456789abcdef0123" });
    expect(() => readConfig({ METRICS_PORT: "70000" })).toThrow('METRICS_PORT must be a whole number from 1 to 65535 (was "70000")');
    expect(() => readConfig({ METRICS_TOKEN: "short" })).toThrow("METRICS_TOKEN must be at least 16 characters");
    expect(() => readConfig({ METRICS_TOKEN: "a token with spaces in it" })).toThrow("METRICS_TOKEN must be at least 16 characters");
  });

  it("names the server to push services by VAPID_SUBJECT, else its https origin, and refuses a subject they would not take", () => {
    expect(readConfig({ VAPID_SUBJECT: "mailto:grower@farm.example.com" }).vapidSubject).toBe("mailto:grower@farm.example.com");
    expect(readConfig({ PUBLIC_ORIGIN: "http://farm.lan,https://farm.example.com" }).vapidSubject).toBe("https://farm.example.com");
    expect(readConfig({}).vapidSubject).toMatch(/^mailto:/);
    for (const bad of ["grower@farm.example.com", "http://farm.example.com", "mailto:nobody"]) {
      expect(() => readConfig({ VAPID_SUBJECT: bad }), bad).toThrow(/^VAPID_SUBJECT must be a mailto: address or an https: URL/);
    }
  });
});
