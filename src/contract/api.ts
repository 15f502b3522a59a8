import { type, type Traversal, type Type } from "arktype";
import { CONTROLLER_TYPES, SENSOR_TYPES, AC_BASES, type Client } from "./entities.ts";
import { CLAIM_CODE_REQUIRED } from "./claim-code.ts";
import { claimCodeField, emailField, idField, macField, MOBILE_PATTERN, numberIn, optionalText, requiredText } from "./fields.ts";
import { LIMITS } from "./limits.ts";
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
      (s, ctx) => (CONTROLLER_TYPES as readonly string[]).includes(s) || ctx.reject({ message: `Type must be one of ${CONTROLLER_TYPES.join(", ")}` }),
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
    type: type("string").narrow((s, ctx) =>
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
