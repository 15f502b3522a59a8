import { z } from "zod";
import { EMAIL_PATTERN, MOBILE_PATTERN } from "./fields.ts";
import { AC_BASES, CONTROLLER_TYPES, SENSOR_TYPES } from "./entities.ts";
import { MAC_PATTERN } from "./mac.ts";

/**
 * The forms of SPEC §2 with the exact messages of SPEC §5, for Conform (`parseWithZod`). Conform
 * turns an empty field into undefined, so "required" is the message for a missing value.
 */

const required = (message: string) => z.string({ error: message }).trim().min(1, { error: message });

export const registerForm = z
  .object({
    username: required("Username is required").pipe(z.string().min(3, { error: "Username must be at least 3 characters" })),
    email: required("Email is required").pipe(z.string().regex(EMAIL_PATTERN, { error: "Invalid email address" })),
    password: z.string({ error: "Password is required" }).min(1, { error: "Password is required" }).min(8, { error: "Password must be at least 8 characters" }),
    confirmPassword: z.string({ error: "Please confirm your password" }).min(1, { error: "Please confirm your password" }),
    mobile: required("Mobile number is required").pipe(z.string().regex(MOBILE_PATTERN, { error: "Invalid mobile number" })),
    country: required("Please select your country"),
    address: required("Address is required"),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], error: "Passwords do not match" });

export const loginForm = z.object({
  emailOrUsername: required("Email or username is required"),
  password: z.string({ error: "Password is required" }).min(1, { error: "Password is required" }).min(6, { error: "Password must be at least 6 characters" }),
});

export const mcuForm = z.object({
  name: required("MCU name is required"),
  mac: required("MAC address is required").pipe(z.string().regex(MAC_PATTERN, { error: "Invalid MAC address format" })),
  farm_id: z.coerce.number({ error: "Please select a farm" }).int({ error: "Please select a farm" }).positive({ error: "Please select a farm" }),
});

export const farmForm = z.object({
  name: required("Farm name is required"),
  location: required("Location is required"),
});

export const controllerForm = z.object({
  name: required("Name is required"),
  mac: z.string().regex(MAC_PATTERN, { error: "Invalid MAC address format" }),
  type: z.enum(CONTROLLER_TYPES, { error: "Type required" }),
  mcu_id: z.coerce.number({ error: "Please select an MCU" }).int().positive({ error: "Please select an MCU" }),
});

export const sensorForm = z.object({
  name: z.string().trim().optional(),
  mac: z.string().regex(MAC_PATTERN, { error: "Invalid MAC address format" }),
  type: z.enum(SENSOR_TYPES, { error: "Type required" }),
  mcu_id: z.coerce.number({ error: "MCU required" }).int().positive({ error: "MCU required" }),
});

export const profileNameForm = z.object({ name: required("Name is required") });

const requiredNumber = (label: string) =>
  z.preprocess(
    (v) => (v === "" || v === undefined || v === null ? undefined : Number(v)),
    z.number({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`) }),
  );

/** Step 2 of a profile: every value is a required number, converted on submit (SPEC §5). */
export const profileSettingsForm = z.object({
  irrigation: z.object({
    on_cycle_hours: requiredNumber("On cycle (hours)"),
    off_cycle_liters: requiredNumber("Off cycle (liters)"),
    soil_moisture_on: requiredNumber("Soil moisture on (%)"),
    soil_moisture_off: requiredNumber("Soil moisture off (%)"),
  }),
  ventilation: z.object({ co2_threshold: requiredNumber("CO2 threshold (ppm)") }),
  ac: z.object({ based_on: z.enum(AC_BASES).default("soil_temp"), target_temp: requiredNumber("Target temperature (°C)") }),
  humidifier: z.object({ humidity_on_below: requiredNumber("On below (%)"), humidity_off_above: requiredNumber("Off above (%)") }),
});

export const settingsProfileForm = z.object({
  username: required("First name is required"),
  email: required("Email is required").pipe(z.string().regex(EMAIL_PATTERN, { error: "Invalid email address" })),
  mobile: z.string().trim().optional(),
  country: z.string().optional(),
  address: z.string().trim().optional(),
});

export const settingsPasswordForm = z
  .object({
    password: z.string({ error: "New password is required" }).min(1, { error: "New password is required" }),
    confirm_password: z.string({ error: "Please confirm your password" }).min(1, { error: "Please confirm your password" }),
  })
  .refine((v) => v.password === v.confirm_password, { path: ["confirm_password"], error: "Passwords do not match" });
