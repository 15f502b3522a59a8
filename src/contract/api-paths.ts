/**
 * The API's paths, apart from the request schemas of api.ts: the data core needs the paths and not
 * the schemas (the server validates requests), so it does not build them at start.
 */
/** Every path of SPEC §7 plus the session endpoints, in one place for the app and the server. */
export const API_PATHS = {
  register: "/api/clients",
  login: "/api/clients/login",
  logout: "/api/clients/logout",
  me: "/api/clients/me",
  client: (clientId: number) => `/api/clients/${clientId}`,
  notifications: (clientId: number) => `/notifications/${clientId}`,
  notificationsRead: (clientId: number) => `/notifications/${clientId}/read`,
  mcusByClient: (clientId: number) => `/api/mcus/by-client/${clientId}`,
  mcus: "/api/mcus",
  mcu: (mcuId: number) => `/api/mcus/${mcuId}`,
  farmsOfClient: (clientId: number) => `/api/farms/myfarms/get?client_id=${clientId}`,
  farms: "/api/farms",
  farm: (farmId: number) => `/api/farms/${farmId}`,
  controllerScan: (mac: string) => `/api/controllers/scan-mac/${encodeURIComponent(mac)}`,
  controllers: "/api/controllers",
  controller: (unitId: number) => `/api/controllers/${unitId}`,
  sensorScan: (mac: string) => `/api/sensors/scan-mac/${encodeURIComponent(mac)}`,
  sensors: "/api/sensors",
  sensor: (sensorId: number) => `/api/sensors/${sensorId}`,
  profilesOfClient: (clientId: number) => `/api/setting-profiles/${clientId}`,
  profiles: "/api/setting-profiles",
  profile: (profileId: number) => `/api/setting-profiles/${profileId}`,
  link: "/api/setting-profiles/link",
  unlink: (linkId: number) => `/api/setting-profiles/link/${linkId}`,
} as const;


/** MCUs asked for first when a screen opens on an empty list (a wall's first screen), ahead of the whole list. */
export const FIRST_MCUS = 48;

/** The first lists a signed-in screen loads: its MCU list's head and its farms (the page asks the worker for them at start). */
export const firstListPaths = (clientId: number): string[] => [`${API_PATHS.mcusByClient(clientId)}?limit=${FIRST_MCUS}`, API_PATHS.farmsOfClient(clientId)];
