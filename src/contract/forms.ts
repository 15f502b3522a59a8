import { z } from "zod";
import { AC_BASES, CONTROLLER_TYPES, EMAIL_PATTERN, MOBILE_PATTERN, SENSOR_TYPES } from "./enums.ts";
import { isClaimCode } from "./claim-code.ts";
import { formText } from "./form-texts.ts";
import { MAC_PATTERN, normalizeMac } from "./mac.ts";
import { breaksOrder, PROFILE_ORDER_RULES, PROFILE_SETTINGS, type ProfileOrderRule } from "./profile-settings.ts";

/**
 * The forms of SPEC §2 with the exact messages of SPEC §5 (in English; the `forms` texts of the
 * catalogue in other languages), for Conform (`parseWithZod`). Conform turns an empty field into
 * undefined, so "required" is the message for a missing value. Each message is a function, written
 * when the value is checked (form-texts.ts), so it is in the language the reader has then.
 */
type Message = () => string;
const say =
  (key: string): Message =>
  () =>
    formText(key);

const required = (message: Message) => z.string({ error: message }).trim().min(1, { error: message });

/** Both fields hold text, so comparing them means something (an empty one has its own "required" message). */
function bothTyped(value: unknown, a: string, b: string): boolean {
  const v = value as Record<string, unknown> | undefined;
  const typed = (x: unknown) => typeof x === "string" && x.length > 0;
  return typed(v?.[a]) && typed(v?.[b]);
}

export const registerForm = z
  .object({
    username: required(say("usernameRequired")).pipe(z.string().min(3, { error: say("usernameTooShort") })),
    email: required(say("emailRequired")).pipe(z.string().regex(EMAIL_PATTERN, { error: say("emailInvalid") })),
    password: z.string({ error: say("passwordRequired") }).min(1, { error: say("passwordRequired") }).min(8, { error: say("passwordTooShortRegister") }),
    confirmPassword: z.string({ error: say("confirmPasswordRequired") }).min(1, { error: say("confirmPasswordRequired") }),
    mobile: required(say("mobileRequired")).pipe(z.string().regex(MOBILE_PATTERN, { error: say("mobileInvalid") })),
    country: required(say("countryRequired")),
    address: required(say("addressRequired")),
  })
  // `when`: zod skips an object's refinement once any field failed; this one needs only the two passwords.
  .refine((v) => v.password === v.confirmPassword, {
    path: ["confirmPassword"],
    error: say("passwordsDiffer"),
    when: ({ value }) => bothTyped(value, "password", "confirmPassword"),
  });

export const loginForm = z.object({
  emailOrUsername: required(say("loginNameRequired")),
  password: z.string({ error: say("passwordRequired") }).min(1, { error: say("passwordRequired") }).min(6, { error: say("passwordTooShortLogin") }),
});

export const mcuForm = z.object({
  name: required(say("mcuNameRequired")),
  mac: required(say("macRequired")).pipe(z.string().regex(MAC_PATTERN, { error: say("macInvalid") })),
  farm_id: z.coerce.number({ error: say("farmRequired") }).int({ error: say("farmRequired") }).positive({ error: say("farmRequired") }),
});

const claimCode = required(say("claimCodeRequired")).pipe(z.string().refine(isClaimCode, { error: say("claimCodeFormat") }));

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
  name: required(say("farmNameRequired")),
  location: required(say("locationRequired")),
});

export const controllerForm = z.object({
  name: required(say("nameRequired")),
  mac: z.string().regex(MAC_PATTERN, { error: say("macInvalid") }),
  type: z.enum(CONTROLLER_TYPES, { error: say("typeRequired") }),
  mcu_id: z.coerce.number({ error: say("mcuRequiredSelect") }).int().positive({ error: say("mcuRequiredSelect") }),
});

export const sensorForm = z.object({
  name: z.string().trim().optional(),
  mac: z.string().regex(MAC_PATTERN, { error: say("macInvalid") }),
  type: z.enum(SENSOR_TYPES, { error: say("typeRequired") }),
  mcu_id: z.coerce.number({ error: say("mcuRequired") }).int().positive({ error: say("mcuRequired") }),
});

export const profileNameForm = z.object({ name: required(say("nameRequired")) });

type SettingGroup = keyof typeof PROFILE_SETTINGS;

/** A setting's form label ("On below (%)"), from the catalogue. */
const settingLabel = (group: string, name: string) => formText(`settingLabels.${group}.${name}`);

/** A required number within the setting's plausible range, the same range the server holds (SPEC §5: converted on submit). */
function settingNumber<G extends SettingGroup>(group: G, name: keyof (typeof PROFILE_SETTINGS)[G] & string) {
  const s = (PROFILE_SETTINGS[group] as Record<string, { min: number; max: number }>)[name]!;
  const outOfRange = () => formText("settingRange", { label: settingLabel(group, name), min: s.min, max: s.max });
  return z.preprocess(
    (v) => (v === "" || v === undefined || v === null ? undefined : Number(v)),
    z
      .number({ error: (issue) => formText(issue.input === undefined ? "settingRequired" : "settingNotNumber", { label: settingLabel(group, name) }) })
      .min(s.min, { error: outOfRange })
      .max(s.max, { error: outOfRange }),
  );
}

/** "Must be below Humidifier off above (92 %)", under the lower field of a rule. */
const orderFieldText = (rule: ProfileOrderRule, upperValue: number) =>
  formText("mustBeBelow", { setting: formText(`settingNames.${rule.group}.${rule.upper}`), value: upperValue, unit: formText(`settingUnits.${rule.group}.${rule.upper}`) });

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
        ctx.addIssue({ code: "custom", path: [rule.lower], message: orderFieldText(rule, values[rule.upper]!) });
      }
    },
    { when: ({ value }) => typeof value === "object" && value !== null },
  );
}

/** Step 2 of a profile: every value is a required number in its range, converted on submit (SPEC §5), and each "on" below its "off". */
export const profileSettingsForm = z.object({
  irrigation: orderedGroup(
    {
      on_cycle_hours: settingNumber("irrigation", "on_cycle_hours"),
      off_cycle_liters: settingNumber("irrigation", "off_cycle_liters"),
      soil_moisture_on: settingNumber("irrigation", "soil_moisture_on"),
      soil_moisture_off: settingNumber("irrigation", "soil_moisture_off"),
    },
    PROFILE_ORDER_RULES.irrigation,
  ),
  ventilation: z.object({ co2_threshold: settingNumber("ventilation", "co2_threshold") }),
  ac: z.object({ based_on: z.enum(AC_BASES).default("soil_temp"), target_temp: settingNumber("ac", "target_temp") }),
  humidifier: orderedGroup(
    {
      humidity_on_below: settingNumber("humidifier", "humidity_on_below"),
      humidity_off_above: settingNumber("humidifier", "humidity_off_above"),
    },
    PROFILE_ORDER_RULES.humidifier,
  ),
});

export const settingsProfileForm = z.object({
  username: required(say("firstNameRequired")),
  email: required(say("emailRequired")).pipe(z.string().regex(EMAIL_PATTERN, { error: say("emailInvalid") })),
  mobile: z.string().trim().optional(),
  country: z.string().optional(),
  address: z.string().trim().optional(),
});

export const settingsPasswordForm = z
  .object({
    password: z.string({ error: say("newPasswordRequired") }).min(1, { error: say("newPasswordRequired") }),
    confirm_password: z.string({ error: say("confirmPasswordRequired") }).min(1, { error: say("confirmPasswordRequired") }),
  })
  .refine((v) => v.password === v.confirm_password, { path: ["confirm_password"], error: say("passwordsDiffer") });
