import { route, routeWithQuery } from "./route.ts";

/**
 * The API's paths, apart from the request schemas of api.ts: the data core needs the paths and not
 * the schemas (the server validates requests), so it does not build them at start.
 */
/**
 * Every path of SPEC §7 plus the session endpoints, in one place for the app and the server: a
 * path with parameters is a route (the server registers its `pattern`, the app calls it with the
 * values), a fixed path is a string both use as it is.
 */
export const API_PATHS = {
  register: "/api/clients",
  login: "/api/clients/login",
  logout: "/api/clients/logout",
  me: "/api/clients/me",
  client: route("/api/clients/:client_id"),
  // SPEC §7: the notification paths have no /api prefix.
  notifications: route("/notifications/:client_id"),
  notificationsRead: route("/notifications/:client_id/read"),
  mcusByClient: route("/api/mcus/by-client/:clientId"),
  mcus: "/api/mcus",
  mcu: route("/api/mcus/:mcu_id"),
  farmsOfClient: routeWithQuery("/api/farms/myfarms/get", "client_id"),
  farms: "/api/farms",
  farm: route("/api/farms/:farm_id"),
  controllerScan: route("/api/controllers/scan-mac/:mac"),
  controllers: "/api/controllers",
  controller: route("/api/controllers/:unit_id"),
  sensorScan: route("/api/sensors/scan-mac/:mac"),
  sensors: "/api/sensors",
  sensor: route("/api/sensors/:sensor_id"),
  profilesOfClient: route("/api/setting-profiles/:clientId"),
  profiles: "/api/setting-profiles",
  profile: route("/api/setting-profiles/:profile_id"),
  link: "/api/setting-profiles/link",
  unlink: route("/api/setting-profiles/link/:linkId"),
  // Grow cycles (beyond SPEC): the signed-in client's recipes and batches.
  recipes: "/api/recipes",
  recipeStarters: "/api/recipes/starters",
  recipe: route("/api/recipes/:recipe_id"),
  batches: "/api/batches",
  batch: route("/api/batches/:batch_id"),
  batchActions: route("/api/batches/:batch_id/actions"),
  batchHarvests: route("/api/batches/:batch_id/harvests"),
  batchHarvest: route("/api/batches/:batch_id/harvests/:harvest_id"),
  mcuConfigChanges: route("/api/mcus/:mcu_id/config-changes"),
  // Farm teams (beyond SPEC): the signed-in person's role on each farm they see, members and invitations.
  farmRoles: "/api/clients/me/farm-roles",
  farmMembers: route("/api/farms/:farm_id/members"),
  farmMember: route("/api/farms/:farm_id/members/:client_id"),
  farmInvitations: route("/api/farms/:farm_id/invitations"),
  farmInvitation: route("/api/farms/:farm_id/invitations/:invitation_id"),
  invitationPreview: route("/api/invitations/:code"),
  acceptInvitation: "/api/invitations/accept",
  farmRota: route("/api/farms/:farm_id/rota"),
  alarmNotices: route("/api/alarms/:alarm_id/notices"),
  farmAudit: route("/api/farms/:farm_id/audit"),
  farmAuditCsv: route("/api/farms/:farm_id/audit.csv"),
} as const;


/** MCUs asked for first when a screen opens on an empty list (a wall's first screen), ahead of the whole list. */
export const FIRST_MCUS = 48;

/**
 * The first lists a signed-in screen loads: its MCU list's head, its farms, and the batches the MCU
 * cards wait for (they say which batch each room follows); the page asks the worker for them at start.
 */
export const firstListPaths = (clientId: number): string[] => [`${API_PATHS.mcusByClient(clientId)}?limit=${FIRST_MCUS}`, API_PATHS.farmsOfClient(clientId), API_PATHS.batches];
