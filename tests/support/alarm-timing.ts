/**
 * A test server's alarm timing, shortened so a test sees an alarm open and resolve within a
 * minute: a reading out of profile for 5 s opens one (5 min in production), and a condition
 * cleared for 5 s resolves it (2 min).
 */
export const ALARM_TIMING_ENV = { ALARM_GRACE_SECONDS: "5", ALARM_HOLD_SECONDS: "5" } as const;
