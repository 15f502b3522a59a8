import { type, type Traversal, type Type } from "arktype";
import { CONTROLLER_TYPES, SENSOR_TYPES, AC_BASES, type Client, type ControllerType, type SensorType } from "./entities.ts";
import { CLAIM_CODE_REQUIRED } from "./claim-code.ts";
import { claimCodeField, emailField, idField, macField, MOBILE_PATTERN, numberIn, optionalText, requiredText } from "./fields.ts";
import { LIMITS } from "./limits.ts";
import { INVITATION_DAYS, role } from "./team.ts";
import { DIGITS, isDigits, isLanguage, LANGUAGES, type Digits, type Language } from "./language-values.ts";
import { BATCH_ACTIONS, GROW_LIMITS, isTimeZone, RAMPABLE_SETTING_NAMES, RAMPABLE_SETTINGS } from "./grow.ts";
import { breaksOrder, orderMessage, PROFILE_ORDER_RULES, PROFILE_SETTINGS, standaloneLabel, type ProfileOrderRule, type ProfileSetting } from "./profile-settings.ts";

/**
 * Request bodies of SPEC §7, validated by the server. `missing` gives the message for an
 * absent field where SPEC §5 names one; other absent fields read "<field> is required".
 * Unknown fields are refused ("+": "reject").
 */
export interface RequestSchema<T extends Type = Type> {
  schema: T;
  missing: Record<string, string>;
}

function request<const T extends Type>(schema: T, missing: Record<string, string> = {}): RequestSchema<T> {
  return { schema, missing };
}

const registerMissing = {
  username: "Username is required",
  email: "Email is required",
  password: "Password is required",
  confirmPassword: "Please confirm your password",
  mobile: "Mobile number is required",
  country: "Please select your country",
  address: "Address is required",
};

const countryField = type("string").narrow(
  (s, ctx) => /^[A-Z]{2}$/.test(s) || ctx.reject({ message: "Please select your country" }),
);

const mobileField = requiredText("Mobile number", "Mobile number is required", LIMITS.mobile).narrow(
  (s, ctx) => MOBILE_PATTERN.test(s) || ctx.reject({ message: "Invalid mobile number" }),
);

/** The language the person reads (language-values.ts): what the server writes their notifications and pushes in. */
const languageField = type("string").narrow((s, ctx): s is Language => isLanguage(s) || ctx.reject({ message: `language must be one of ${LANGUAGES.join(", ")}` }));
/** Their digits: Western (latn) or Arabic-Indic (arab). */
const digitsField = type("string").narrow((s, ctx): s is Digits => isDigits(s) || ctx.reject({ message: `digits must be one of ${DIGITS.join(", ")}` }));

function passwordField(min: number, max: number) {
  return type("string").narrow((s, ctx) =>
    s.length === 0
      ? ctx.reject({ message: "Password is required" })
      : s.length < min
        ? ctx.reject({ message: `Password must be at least ${min} characters` })
        : s.length <= max || ctx.reject({ message: `Password must be at most ${max} characters` }),
  );
}

/** POST /api/clients */
export const registerRequest = request(
  type({
    username: requiredText("Username", "Username is required", LIMITS.username.max).narrow(
      (s, ctx) => s.length >= LIMITS.username.min || ctx.reject({ message: "Username must be at least 3 characters" }),
    ),
    email: emailField("Email is required"),
    password: passwordField(LIMITS.passwordRegister.min, LIMITS.passwordRegister.max),
    confirmPassword: type("string").narrow((s, ctx) => s.length > 0 || ctx.reject({ message: "Please confirm your password" })),
    mobile: mobileField,
    country: countryField,
    address: requiredText("Address", "Address is required", LIMITS.address),
    // Chosen on the register screen; English with Western digits when not sent (an older app).
    "language?": languageField,
    "digits?": digitsField,
    "+": "reject",
  }).narrow(
    (body, ctx) => body.password === body.confirmPassword || ctx.reject({ path: ["confirmPassword"], message: "Passwords do not match" }),
  ),
  registerMissing,
);

/** POST /api/clients/login: `username` carries the form's emailOrUsername. */
export const loginRequest = request(
  type({
    username: requiredText("Email or username", "Email or username is required", LIMITS.loginName),
    password: passwordField(LIMITS.passwordLogin.min, LIMITS.passwordLogin.max),
    "+": "reject",
  }),
  { username: "Email or username is required", password: "Password is required" },
);

/**
 * PUT /api/clients/{client_id}: the whole stored client with fcm_token updated, the Settings
 * profile form, or the Settings password form. Every field is optional; timestamps the app echoes
 * back are accepted and ignored.
 */
export const updateClientRequest = request(
  type({
    "client_id?": idField("client_id"),
    "username?": requiredText("First name", "First name is required", LIMITS.username.max),
    "email?": emailField("Email is required"),
    "mobile?": optionalText("Phone number", LIMITS.mobile).narrow(
      (s, ctx) => s === "" || MOBILE_PATTERN.test(s) || ctx.reject({ message: "Invalid mobile number" }),
    ),
    "country?": countryField,
    "address?": optionalText("Address", LIMITS.address),
    "fcm_token?": type("string | null").narrow(
      (s, ctx) =>
        s === null || (s.length <= LIMITS.fcmToken && /^[\x21-\x7e]*$/.test(s)) || ctx.reject({ message: "fcm_token is not a valid push token" }),
    ),
    "password?": type("string").narrow((s, ctx) =>
      s.length === 0
        ? ctx.reject({ message: "New password is required" })
        : s.length < LIMITS.passwordRegister.min
          ? ctx.reject({ message: "Password must be at least 8 characters" })
          : s.length <= LIMITS.passwordRegister.max || ctx.reject({ message: "Password must be at most 256 characters" }),
    ),
    "confirm_password?": "string",
    "language?": languageField,
    "digits?": digitsField,
    "createdAt?": "string",
    "updatedAt?": "string",
    "+": "reject",
  }).narrow((body, ctx) => {
    if (body.password === undefined) {
      return body.confirm_password === undefined || ctx.reject({ path: ["password"], message: "New password is required" });
    }
    if (!body.confirm_password) return ctx.reject({ path: ["confirm_password"], message: "Please confirm your password" });
    return body.password === body.confirm_password || ctx.reject({ path: ["confirm_password"], message: "Passwords do not match" });
  }),
);

/** POST /api/farms */
export const createFarmRequest = request(
  type({
    name: requiredText("Farm name", "Farm name is required", LIMITS.name),
    location: requiredText("Location", "Location is required", LIMITS.location),
    client_id: idField("client_id"),
    "+": "reject",
  }),
  { name: "Farm name is required", location: "Location is required" },
);

/** PUT /api/farms/{id} */
export const updateFarmRequest = request(
  type({
    name: requiredText("Farm name", "Farm name is required", LIMITS.name),
    location: requiredText("Location", "Location is required", LIMITS.location),
    "+": "reject",
  }),
  { name: "Farm name is required", location: "Location is required" },
);

const mcuMissing = { name: "MCU name is required", mac: "MAC address is required", claim_code: CLAIM_CODE_REQUIRED, farm_id: "Please select a farm" };

/** POST /api/mcus: a new MCU is always created with status active (SPEC §4). */
export const createMcuRequest = request(
  type({
    name: requiredText("MCU name", "MCU name is required", LIMITS.name),
    mac: macField(),
    /** The secret on the MCU's label (an addition to SPEC §7's body): a MAC alone claims nothing. */
    claim_code: claimCodeField(),
    farm_id: idField("Farm", "Please select a farm"),
    "status?": "'active'",
    "+": "reject",
  }),
  mcuMissing,
);

/** PUT /api/mcus/{mcu_id}: moving the MCU to another device (a new MAC) claims that device, so needs its code. */
export const updateMcuRequest = request(
  type({
    name: requiredText("MCU name", "MCU name is required", LIMITS.name),
    mac: macField(),
    "claim_code?": claimCodeField(),
    farm_id: idField("Farm", "Please select a farm"),
    "+": "reject",
  }),
  mcuMissing,
);

/** POST /api/controllers and PUT /api/controllers/{unit_id} */
export const controllerRequest = request(
  type({
    name: requiredText("Name", "Name is required", LIMITS.name),
    mac: macField(),
    type: type("string").narrow(
      (s, ctx): s is ControllerType => (CONTROLLER_TYPES as readonly string[]).includes(s) || ctx.reject({ message: `Type must be one of ${CONTROLLER_TYPES.join(", ")}` }),
    ),
    mcu_id: idField("MCU", "Please select an MCU"),
    "+": "reject",
  }),
  { name: "Name is required", mcu_id: "Please select an MCU", type: "Type required" },
);

/** POST /api/sensors and PUT /api/sensors/{sensor_id}; an empty name is shown as Unnamed. */
export const sensorRequest = request(
  type({
    "name?": optionalText("Name", LIMITS.name),
    mac: macField(),
    type: type("string").narrow((s, ctx): s is SensorType =>
      s === ""
        ? ctx.reject({ message: "Type required" })
        : (SENSOR_TYPES as readonly string[]).includes(s) || ctx.reject({ message: `Type must be one of ${SENSOR_TYPES.join(", ")}` }),
    ),
    mcu_id: idField("MCU", "MCU required"),
    "+": "reject",
  }),
  { mcu_id: "MCU required", type: "Type required" },
);

const S = PROFILE_SETTINGS;
const settingNumber = (s: ProfileSetting) => numberIn(standaloneLabel(s), s.min, s.max);

/**
 * A device's order rule (on below off), checked on its numbers and reported at the lower value's
 * path (e.g. config.humidifier.humidity_on_below). arktype checks it even when another part of
 * the config is wrong, so the answer lists every problem.
 */
const keepsOrder =
  (rule: ProfileOrderRule) =>
  (group: object, ctx: Traversal): boolean => {
    const values = group as Record<string, number>;
    return (
      !breaksOrder(rule, values) ||
      ctx.reject({ path: [...ctx.path, rule.lower], message: orderMessage(rule, values[rule.lower]!, values[rule.upper]!) })
    );
  };

/** The automation settings in their plausible ranges (src/contract/profile-settings.ts, the form's too); units of SPEC §9. */
export const profileConfigInput = type({
  irrigation: type({
    on_cycle_hours: settingNumber(S.irrigation.on_cycle_hours),
    off_cycle_liters: settingNumber(S.irrigation.off_cycle_liters),
    soil_moisture_on: settingNumber(S.irrigation.soil_moisture_on),
    soil_moisture_off: settingNumber(S.irrigation.soil_moisture_off),
    "+": "reject",
  }).narrow(keepsOrder(PROFILE_ORDER_RULES.irrigation)),
  ventilation: type({ co2_threshold: settingNumber(S.ventilation.co2_threshold), "+": "reject" }),
  ac: type({
    "based_on?": type.enumerated(...AC_BASES),
    target_temp: settingNumber(S.ac.target_temp),
    "+": "reject",
  }).pipe((ac) => ({ based_on: ac.based_on ?? "soil_temp", target_temp: ac.target_temp })),
  humidifier: type({
    humidity_on_below: settingNumber(S.humidifier.humidity_on_below),
    humidity_off_above: settingNumber(S.humidifier.humidity_off_above),
    "+": "reject",
  }).narrow(keepsOrder(PROFILE_ORDER_RULES.humidifier)),
  "+": "reject",
});

/** POST /api/setting-profiles and PUT /api/setting-profiles/{profile_id} */
export const profileRequest = request(
  type({
    name: requiredText("Name", "Name is required", LIMITS.name),
    client_id: idField("client_id"),
    config: profileConfigInput,
    "+": "reject",
  }),
  { name: "Name is required" },
);

/** POST /api/setting-profiles/link: one profile per MCU; linking again replaces the link. */
export const linkRequest = request(
  type({ mcu_id: idField("MCU"), profile_id: idField("Profile"), "+": "reject" }),
);

/**
 * PUT /notifications/{client_id}/read (an addition to SPEC §7): marks read the notifications the
 * panel showed, by id, so one that arrived meanwhile stays unread. Answers `{ updated }`.
 */
export const markNotificationsReadRequest = request(
  type({ notification_ids: type("number.integer > 0").array().atMostLength(500), "+": "reject" }),
  { notification_ids: "notification_ids is required" },
);

// ---- Grow cycles (src/contract/grow.ts) ----

const G = GROW_LIMITS;

/** A ramp's end value in its setting's range. */
const rampInput = type({ setting: type.enumerated(...RAMPABLE_SETTING_NAMES), to: "unknown", "+": "reject" }).pipe((r, ctx) => {
  const s = RAMPABLE_SETTINGS[r.setting];
  const to = typeof r.to === "number" ? r.to : typeof r.to === "string" && r.to.trim() !== "" ? Number(r.to) : NaN;
  if (!Number.isFinite(to) || to < s.min || to > s.max) return ctx.error({ message: `${standaloneLabel(s)} at the end of the ramp must be between ${s.min} and ${s.max}` });
  return { setting: r.setting, to };
});

/** The phase's config with its ramps' end values put in (the order rules must hold at the end too). */
function endConfigOf(config: Record<string, Record<string, unknown>>, ramps: { setting: string; to: number }[]) {
  const end = structuredClone(config);
  for (const r of ramps) {
    const [group, key] = r.setting.split(".") as [string, string];
    if (end[group]) end[group][key] = r.to;
  }
  return end;
}

const recipePhaseInput = type({
  name: requiredText("Phase name", "Phase name is required", 60),
  days: numberIn("Days", 1, G.phaseDays).narrow((n, ctx) => Number.isInteger(n) || ctx.reject({ message: "Days must be a whole number" })),
  "confirm?": type("string | null").pipe((s) => (s === null || s.trim() === "" ? null : s.trim())).narrow(
    (s, ctx) => s === null || s.length <= 60 || ctx.reject({ message: "What the grower confirms must be at most 60 characters" }),
  ),
  config: profileConfigInput,
  "ramps?": rampInput.array().atMostLength(RAMPABLE_SETTING_NAMES.length),
  "+": "reject",
})
  .pipe((p) => ({ name: p.name, days: p.days, confirm: p.confirm ?? null, config: p.config, ramps: p.ramps ?? [] }))
  .narrow((p, ctx) => {
    const seen = new Set<string>();
    for (const [i, r] of p.ramps.entries()) {
      if (seen.has(r.setting)) return ctx.reject({ path: [...ctx.path, "ramps", i, "setting"], message: `${standaloneLabel(RAMPABLE_SETTINGS[r.setting])} ramps twice in one phase` });
      seen.add(r.setting);
    }
    const end = endConfigOf(p.config as never, p.ramps);
    for (const rule of Object.values(PROFILE_ORDER_RULES)) {
      const group = end[rule.group] as Record<string, number>;
      if (breaksOrder(rule, group)) {
        return ctx.reject({ path: [...ctx.path, "ramps"], message: `At the end of the phase, ${orderMessage(rule, group[rule.lower]!, group[rule.upper]!)}` });
      }
    }
    return true;
  });

/** POST /api/recipes and PUT /api/recipes/{recipe_id}: a change of a recipe makes its next version. */
export const recipeRequest = request(
  type({
    name: requiredText("Name", "Name is required", LIMITS.name),
    species: optionalText("Species", 60),
    phases: recipePhaseInput.array().narrow((phases, ctx) =>
      phases.length === 0
        ? ctx.reject({ message: "A recipe needs at least one phase" })
        : phases.length <= G.phases || ctx.reject({ message: `A recipe has at most ${G.phases} phases` }),
    ),
    /** The account it belongs to, when a member adds one to the account of a farm they manage (their own by default). */
    "client_id?": idField("client_id"),
    "+": "reject",
  }),
  { name: "Name is required", species: "species is required", phases: "A recipe needs at least one phase" },
);

const timeZoneInput = requiredText("Time zone", "Time zone is required", 64).narrow(
  (s, ctx) => isTimeZone(s) || ctx.reject({ message: "Time zone must be an IANA time zone, like Asia/Beirut or UTC" }),
);
const reasonInput = optionalText("Reason", G.reason);
const isoTimeInput = (label: string) =>
  type("string").pipe((s, ctx) => {
    const ms = Date.parse(s);
    return Number.isFinite(ms) && /^\d{4}-\d{2}-\d{2}T/.test(s) ? new Date(ms).toISOString() : ctx.error({ message: `${label} must be a date and time` });
  });

/** POST /api/batches: one recipe's current version on one or more MCUs, each in at most one running batch. */
export const startBatchRequest = request(
  type({
    name: requiredText("Name", "Name is required", LIMITS.name),
    recipe_id: idField("Recipe", "Choose a recipe"),
    mcu_ids: idField("MCU").array().narrow((ids, ctx) =>
      ids.length === 0
        ? ctx.reject({ message: "Choose at least one MCU" })
        : ids.length > G.batchMcus
          ? ctx.reject({ message: `A batch runs on at most ${G.batchMcus} MCUs` })
          : new Set(ids).size === ids.length || ctx.reject({ message: "An MCU is chosen twice" }),
    ),
    time_zone: timeZoneInput,
    "started_at?": isoTimeInput("Start"),
    "+": "reject",
  }),
  { name: "Name is required", recipe_id: "Choose a recipe", mcu_ids: "Choose at least one MCU", time_zone: "Time zone is required" },
);

/** PUT /api/batches/{batch_id} */
export const updateBatchRequest = request(
  type({
    "name?": requiredText("Name", "Name is required", LIMITS.name),
    "substrate_dry_kg?": type("unknown").pipe((v, ctx) => (v === null || v === "" ? null : numberIn("Substrate dry weight (kg)", 0.001, G.harvestKg)(v) instanceof type.errors ? ctx.error({ message: `Substrate dry weight (kg) must be between 0.001 and ${G.harvestKg}` }) : Number(v))),
    "+": "reject",
  }),
);

/** POST /api/batches/{batch_id}/actions */
export const batchActionRequest = request(
  type({
    action: type.enumerated(...BATCH_ACTIONS).configure({ message: `Action must be one of ${BATCH_ACTIONS.join(", ")}` }),
    "days?": numberIn("Days", 1, G.extendDays).narrow((n, ctx) => Number.isInteger(n) || ctx.reject({ message: "Days must be a whole number" })),
    "reason?": reasonInput,
    "+": "reject",
  }).narrow((b, ctx) => b.action !== "extend" || b.days !== undefined || ctx.reject({ path: ["days"], message: "Days is required to extend a phase" })),
  { action: "Action is required" },
);

/** POST /api/batches/{batch_id}/harvests: one flush's fresh weight. */
export const harvestRequest = request(
  type({
    fresh_kg: numberIn("Fresh weight (kg)", 0.001, G.harvestKg),
    "at?": isoTimeInput("Harvest time"),
    "note?": optionalText("Note", G.note),
    "+": "reject",
  }),
  { fresh_kg: "Fresh weight (kg) is required" },
);

export type RecipeRequest = typeof recipeRequest.schema.inferIn;
export type RecipePhaseRequest = RecipeRequest["phases"][number];
export type StartBatchRequest = typeof startBatchRequest.schema.inferIn;
export type UpdateBatchRequest = typeof updateBatchRequest.schema.inferIn;
export type BatchActionRequest = typeof batchActionRequest.schema.inferIn;
export type HarvestRequest = typeof harvestRequest.schema.inferIn;

export type RegisterRequest = typeof registerRequest.schema.inferIn;
export type LoginRequest = typeof loginRequest.schema.inferIn;
export type UpdateClientRequest = typeof updateClientRequest.schema.inferIn;
export type CreateFarmRequest = typeof createFarmRequest.schema.inferIn;
export type UpdateFarmRequest = typeof updateFarmRequest.schema.inferIn;
export type CreateMcuRequest = typeof createMcuRequest.schema.inferIn;
export type UpdateMcuRequest = typeof updateMcuRequest.schema.inferIn;
export type ControllerRequest = typeof controllerRequest.schema.inferIn;
export type SensorRequest = typeof sensorRequest.schema.inferIn;
export type ProfileRequest = typeof profileRequest.schema.inferIn;
export type LinkRequest = typeof linkRequest.schema.inferIn;
export type MarkNotificationsReadRequest = typeof markNotificationsReadRequest.schema.inferIn;

// ---- Farm teams (beyond SPEC) ----

export const createInvitationRequest = request(
  type({
    role,
    "note?": optionalText("Note", 200),
    "days?": numberIn("Days", INVITATION_DAYS.min, INVITATION_DAYS.max).narrow((n, ctx) => Number.isInteger(n) || ctx.reject({ message: "Days must be a whole number" })),
    "+": "reject",
  }),
  { role: "Choose a role" },
);
export const changeRoleRequest = request(type({ role, "+": "reject" }), { role: "Choose a role" });
export const acceptInvitationRequest = request(type({ code: requiredText("Code", "Enter the invitation code", 64), "+": "reject" }), { code: "Enter the invitation code" });
export type CreateInvitationRequest = typeof createInvitationRequest.schema.inferIn;

/** Answers that carry only a message (deletes, logout). */
export interface MessageResponse {
  message: string;
}
/**
 * The one answer to a registration, whether or not the username or email was free: it must not
 * tell a stranger which accounts exist (the owner of a taken email is told by a notification).
 */
export interface RegisterResponse {
  message: string;
}
export const REGISTERED_MESSAGE = "Registration received. If the email was not registered already, the account is ready: sign in with it.";
export interface LoginResponse {
  message: string;
  client: Client;
}

export { API_PATHS } from "./api-paths.ts";
