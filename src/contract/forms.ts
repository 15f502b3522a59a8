import { z } from "zod";
import { AC_BASES, CONTROLLER_TYPES, EMAIL_PATTERN, MOBILE_PATTERN, SENSOR_TYPES } from "./enums.ts";
import { CLAIM_CODE_FORMAT, CLAIM_CODE_REQUIRED, isClaimCode } from "./claim-code.ts";
import { MAC_PATTERN, normalizeMac } from "./mac.ts";
import { breaksOrder, orderFieldMessage, PROFILE_ORDER_RULES, PROFILE_SETTINGS, rangeMessage, type ProfileOrderRule, type ProfileSetting } from "./profile-settings.ts";

/**
 * The forms of SPEC §2 with the exact messages of SPEC §5, for Conform (`parseWithZod`). Conform
 * turns an empty field into undefined, so "required" is the message for a missing value.
 */

const required = (message: string) => z.string({ error: message }).trim().min(1, { error: message });

/** Both fields hold text, so comparing them means something (an empty one has its own "required" message). */
function bothTyped(value: unknown, a: string, b: string): boolean {
  const v = value as Record<string, unknown> | undefined;
  const typed = (x: unknown) => typeof x === "string" && x.length > 0;
  return typed(v?.[a]) && typed(v?.[b]);
}

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
  // `when`: zod skips an object's refinement once any field failed; this one needs only the two passwords.
  .refine((v) => v.password === v.confirmPassword, {
    path: ["confirmPassword"],
    error: "Passwords do not match",
    when: ({ value }) => bothTyped(value, "password", "confirmPassword"),
  });

export const loginForm = z.object({
  emailOrUsername: required("Email or username is required"),
  password: z.string({ error: "Password is required" }).min(1, { error: "Password is required" }).min(6, { error: "Password must be at least 6 characters" }),
});

export const mcuForm = z.object({
  name: required("MCU name is required"),
  mac: required("MAC address is required").pipe(z.string().regex(MAC_PATTERN, { error: "Invalid MAC address format" })),
  farm_id: z.coerce.number({ error: "Please select a farm" }).int({ error: "Please select a farm" }).positive({ error: "Please select a farm" }),
});

const claimCode = required(CLAIM_CODE_REQUIRED).pipe(z.string().refine(isClaimCode, { error: CLAIM_CODE_FORMAT }));

/** Adding an MCU claims its device: the claim code of its label is needed with the MAC. */
export const mcuAddForm = mcuForm.extend({ claim_code: claimCode });

/** Editing an MCU: a MAC other than `currentMac` moves it to another device, which needs that device's claim code. */
export function mcuEditForm(currentMac: string) {
  return mcuForm.extend({ claim_code: z.string().trim().optional() }).superRefine((v, ctx) => {
    if (normalizeMac(v.mac) === normalizeMac(currentMac)) return;
    const result = claimCode.safeParse(v.claim_code ?? "");
    if (!result.success) ctx.addIssue({ code: "custom", path: ["claim_code"], message: result.error.issues[0]!.message });
  });
}

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

const S = PROFILE_SETTINGS;

/** A required number within the setting's plausible range, the same range the server holds (SPEC §5: converted on submit). */
const settingNumber = (s: ProfileSetting) =>
  z.preprocess(
    (v) => (v === "" || v === undefined || v === null ? undefined : Number(v)),
    z
      .number({ error: (issue) => (issue.input === undefined ? `${s.label} is required` : `${s.label} must be a number`) })
      .min(s.min, { error: rangeMessage(s.label, s) })
      .max(s.max, { error: rangeMessage(s.label, s) }),
  );

/**
 * One device's values, with its order rule (on below off) reported under the lower field. `when`
 * lets the rule speak while other fields of the form are still wrong, so every mistake shows at once.
 */
function orderedGroup<Shape extends z.ZodRawShape>(shape: Shape, rule: ProfileOrderRule) {
  return z.object(shape).superRefine(
    (group, ctx) => {
      // Judged only when both values are numbers in range; otherwise their own messages stand alone.
      const values = group as Record<string, number>;
      if (breaksOrder(rule, values)) {
        ctx.addIssue({ code: "custom", path: [rule.lower], message: orderFieldMessage(rule, values[rule.upper]!) });
      }
    },
    { when: ({ value }) => typeof value === "object" && value !== null },
  );
}

/** Step 2 of a profile: every value is a required number in its range, converted on submit (SPEC §5), and each "on" below its "off". */
export const profileSettingsForm = z.object({
  irrigation: orderedGroup(
    {
      on_cycle_hours: settingNumber(S.irrigation.on_cycle_hours),
      off_cycle_liters: settingNumber(S.irrigation.off_cycle_liters),
      soil_moisture_on: settingNumber(S.irrigation.soil_moisture_on),
      soil_moisture_off: settingNumber(S.irrigation.soil_moisture_off),
    },
    PROFILE_ORDER_RULES.irrigation,
  ),
  ventilation: z.object({ co2_threshold: settingNumber(S.ventilation.co2_threshold) }),
  ac: z.object({ based_on: z.enum(AC_BASES).default("soil_temp"), target_temp: settingNumber(S.ac.target_temp) }),
  humidifier: orderedGroup(
    {
      humidity_on_below: settingNumber(S.humidifier.humidity_on_below),
      humidity_off_above: settingNumber(S.humidifier.humidity_off_above),
    },
    PROFILE_ORDER_RULES.humidifier,
  ),
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
