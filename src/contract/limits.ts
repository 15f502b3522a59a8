/** Length limits of stored text; the server refuses longer input with a clear message. */
export const LIMITS = {
  username: { min: 3, max: 50 },
  email: 254,
  passwordRegister: { min: 8, max: 256 },
  passwordLogin: { min: 6, max: 256 },
  mobile: 32,
  address: 500,
  name: 100,
  location: 200,
  fcmToken: 4096,
  loginName: 254,
} as const;

/** SPEC §9 business constants shared by the app, the worker and the server. */
export const CONSTANTS = {
  toastAutoCloseMs: 5000,
  registerErrorToastMs: 3000,
  freshnessWindowMs: 120_000,
  dashboardClockTickMs: 30_000,
  lowBatteryBelow: 30,
  batteryGreenAbove: 50,
  batteryYellowAbove: 20,
  chunkLoadTimeoutMs: 120_000,
  pushTokenRefreshMs: 7 * 24 * 60 * 60 * 1000,
} as const;
