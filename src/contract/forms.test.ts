import { type } from "arktype";
import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import englishForms from "../locales/en/forms.json";
import { writeFormTextsWith } from "./form-texts.ts";
import { profileConfigInput } from "./api.ts";
import { loginForm, mcuAddForm, mcuEditForm, mcuForm, profileSettingsForm, registerForm, settingsPasswordForm } from "./forms.ts";

const firstError = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }, field: string) =>
  r.error?.issues.find((i) => i.path.join(".") === field)?.message;

// The messages as the app writes them in English: the catalogue's forms texts through i18next.
beforeAll(async () => {
  const english = i18next.createInstance();
  await english.init({ lng: "en", resources: { en: { forms: englishForms } }, interpolation: { escapeValue: false } });
  writeFormTextsWith((key, values) => String(english.t(`forms:${key}` as never, values as never)));
});

describe("form schemas (SPEC §5 messages)", () => {
  it("registers with the exact messages", () => {
    expect(firstError(registerForm.safeParse({}), "username")).toBe("Username is required");
    expect(firstError(registerForm.safeParse({ username: "ab" }), "username")).toBe("Username must be at least 3 characters");
    expect(firstError(registerForm.safeParse({ email: "x" }), "email")).toBe("Invalid email address");
    expect(firstError(registerForm.safeParse({ password: "short" }), "password")).toBe("Password must be at least 8 characters");
    expect(firstError(registerForm.safeParse({}), "confirmPassword")).toBe("Please confirm your password");
    expect(firstError(registerForm.safeParse({ mobile: "12ab" }), "mobile")).toBe("Invalid mobile number");
    expect(firstError(registerForm.safeParse({}), "country")).toBe("Please select your country");
    expect(firstError(registerForm.safeParse({}), "address")).toBe("Address is required");
    const mismatch = registerForm.safeParse({ username: "abc", email: "a@b.co", password: "12345678", confirmPassword: "12345679", mobile: "+1 (2) 3-4", country: "LB", address: "x" });
    expect(firstError(mismatch, "confirmPassword")).toBe("Passwords do not match");
  });

  it("signs in, adds MCUs and changes passwords with the exact messages", () => {
    expect(firstError(loginForm.safeParse({}), "emailOrUsername")).toBe("Email or username is required");
    expect(firstError(loginForm.safeParse({ password: "12345" }), "password")).toBe("Password must be at least 6 characters");
    expect(firstError(mcuForm.safeParse({ mac: "12:34" }), "mac")).toBe("Invalid MAC address format");
    expect(firstError(mcuForm.safeParse({}), "farm_id")).toBe("Please select a farm");
    expect(firstError(mcuForm.safeParse({}), "name")).toBe("MCU name is required");
    expect(firstError(settingsPasswordForm.safeParse({ password: "a" }), "confirm_password")).toBe("Please confirm your password");
    expect(firstError(settingsPasswordForm.safeParse({ password: "a", confirm_password: "b" }), "confirm_password")).toBe("Passwords do not match");
  });

  it("adds an MCU with its label's claim code, and asks for one on edit only for another device", () => {
    const base = { name: "Bay", mac: "02:4D:46:00:01:01", farm_id: "1" };
    expect(firstError(mcuAddForm.safeParse(base), "claim_code")).toBe("Claim code is required");
    expect(firstError(mcuAddForm.safeParse({ ...base, claim_code: "7K2M" }), "claim_code")).toBe("Claim code has 12 letters and digits, as printed on the MCU's label");
    expect(mcuAddForm.safeParse({ ...base, claim_code: "7k2m 9qxd 4twa" }).success).toBe(true);
    const edit = mcuEditForm("02:4D:46:00:01:01");
    expect(edit.safeParse({ ...base, mac: "02-4d-46-00-01-01" }).success).toBe(true);
    expect(firstError(edit.safeParse({ ...base, mac: "02:4D:46:00:01:02" }), "claim_code")).toBe("Claim code is required");
    expect(firstError(edit.safeParse({ ...base, mac: "02:4D:46:00:01:02", claim_code: "nope" }), "claim_code")).toBe("Claim code has 12 letters and digits, as printed on the MCU's label");
    expect(edit.safeParse({ ...base, mac: "02:4D:46:00:01:02", claim_code: "7K2M-9QXD-4TWA" }).success).toBe(true);
  });

  it("converts profile settings to numbers and defaults the AC basis to soil_temp", () => {
    const r = profileSettingsForm.safeParse({
      irrigation: { on_cycle_hours: "4", off_cycle_liters: "12", soil_moisture_on: "40", soil_moisture_off: "65" },
      ventilation: { co2_threshold: "800" },
      ac: { target_temp: "18.5" },
      humidifier: { humidity_on_below: "85", humidity_off_above: "93" },
    });
    expect(r.success).toBe(true);
    expect(r.data!.ac).toEqual({ based_on: "soil_temp", target_temp: 18.5 });
    expect(firstError(profileSettingsForm.safeParse({ irrigation: { on_cycle_hours: "x" } }), "irrigation.on_cycle_hours")).toBe("On cycle (hours) must be a number");
  });
});

/** Every error of a parse, as "path: message", in the order zod reports them. */
const allErrors = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (r.error?.issues ?? []).map((i) => `${i.path.join(".")}: ${i.message}`);

describe("register: every mistake at once", () => {
  it("shows Passwords do not match together with the other fields' errors", () => {
    const r = registerForm.safeParse({ username: "ab", email: "farmer@", password: "spores-1", confirmPassword: "spores-2", country: "LB" });
    expect(allErrors(r).sort()).toEqual(
      [
        "username: Username must be at least 3 characters",
        "email: Invalid email address",
        "confirmPassword: Passwords do not match",
        "mobile: Mobile number is required",
        "address: Address is required",
      ].sort(),
    );
  });

  it("reports a mismatch beside a password that is too short", () => {
    const r = registerForm.safeParse({ password: "short", confirmPassword: "shorter" });
    expect(firstError(r, "password")).toBe("Password must be at least 8 characters");
    expect(firstError(r, "confirmPassword")).toBe("Passwords do not match");
  });

  it("asks for the confirmation, not a match, while it is empty, and says nothing of equal passwords", () => {
    for (const confirmPassword of [undefined, ""]) {
      const empty = registerForm.safeParse({ password: "spores-1", confirmPassword });
      expect(allErrors(empty).filter((e) => e.startsWith("confirmPassword"))).toEqual(["confirmPassword: Please confirm your password"]);
    }
    const equal = registerForm.safeParse({ password: "short", confirmPassword: "short" });
    expect(firstError(equal, "confirmPassword")).toBeUndefined();
  });
});

describe("profile settings: ranges and order, under their fields", () => {
  const valid = () => ({
    irrigation: { on_cycle_hours: "4", off_cycle_liters: "12", soil_moisture_on: "40", soil_moisture_off: "65" },
    ventilation: { co2_threshold: "800" },
    ac: { based_on: "room_temp", target_temp: "18" },
    humidifier: { humidity_on_below: "85", humidity_off_above: "92" },
  });
  const withValue = (path: string, value: string) => {
    const [group, key] = path.split(".") as [keyof ReturnType<typeof valid>, string];
    const v = valid();
    (v[group] as Record<string, string>)[key] = value;
    return v;
  };

  // [field, label, min, max]: the limits the server holds too (see the next describe).
  const ranges: [string, string, number, number][] = [
    ["irrigation.on_cycle_hours", "On cycle (hours)", 0, 168],
    ["irrigation.off_cycle_liters", "Off cycle (liters)", 0, 100_000],
    ["irrigation.soil_moisture_on", "Soil moisture on (%)", 0, 100],
    ["irrigation.soil_moisture_off", "Soil moisture off (%)", 0, 100],
    ["ventilation.co2_threshold", "CO2 threshold (ppm)", 0, 50_000],
    ["ac.target_temp", "Target temperature (°C)", -20, 60],
    ["humidifier.humidity_on_below", "On below (%)", 0, 100],
    ["humidifier.humidity_off_above", "Off above (%)", 0, 100],
  ];

  it("accepts a sensible profile", () => {
    expect(allErrors(profileSettingsForm.safeParse(valid()))).toEqual([]);
  });

  it.each(ranges)("%s: required, a number, and between its limits", (path, label, min, max) => {
    expect(firstError(profileSettingsForm.safeParse(withValue(path, "")), path)).toBe(`${label} is required`);
    expect(firstError(profileSettingsForm.safeParse(withValue(path, "many")), path)).toBe(`${label} must be a number`);
    expect(firstError(profileSettingsForm.safeParse(withValue(path, String(min - 0.5))), path)).toBe(`${label} must be between ${min} and ${max}`);
    expect(firstError(profileSettingsForm.safeParse(withValue(path, String(max + 0.5))), path)).toBe(`${label} must be between ${min} and ${max}`);
  });

  it("keeps SPEC §5's required messages for an empty form", () => {
    const empty = profileSettingsForm.safeParse({ irrigation: {}, ventilation: {}, ac: {}, humidifier: {} });
    expect(allErrors(empty)).toEqual(ranges.map(([path, label]) => `${path}: ${label} is required`));
  });

  it("refuses a humidifier that switches on at or above where it switches off", () => {
    const above = withValue("humidifier.humidity_on_below", "95");
    expect(allErrors(profileSettingsForm.safeParse(above))).toEqual(["humidifier.humidity_on_below: Must be below Humidifier off above (92 %)"]);
    const equal = withValue("humidifier.humidity_on_below", "92");
    expect(firstError(profileSettingsForm.safeParse(equal), "humidifier.humidity_on_below")).toBe("Must be below Humidifier off above (92 %)");
  });

  it("refuses irrigation whose soil moisture on is not below off", () => {
    const v = withValue("irrigation.soil_moisture_on", "70");
    expect(allErrors(profileSettingsForm.safeParse(v))).toEqual(["irrigation.soil_moisture_on: Must be below Soil moisture off (65 %)"]);
  });

  it("shows both contradictions with the other fields' errors in one go", () => {
    const r = profileSettingsForm.safeParse({
      irrigation: { on_cycle_hours: "200", soil_moisture_on: "70", soil_moisture_off: "60" },
      ventilation: {},
      ac: { target_temp: "18" },
      humidifier: { humidity_on_below: "95", humidity_off_above: "92" },
    });
    expect(allErrors(r).sort()).toEqual(
      [
        "irrigation.on_cycle_hours: On cycle (hours) must be between 0 and 168",
        "irrigation.off_cycle_liters: Off cycle (liters) is required",
        "irrigation.soil_moisture_on: Must be below Soil moisture off (60 %)",
        "ventilation.co2_threshold: CO2 threshold (ppm) is required",
        "humidifier.humidity_on_below: Must be below Humidifier off above (92 %)",
      ].sort(),
    );
  });

  it("judges the order only once both values are numbers in range", () => {
    const outOfRange = withValue("humidifier.humidity_on_below", "150");
    expect(allErrors(profileSettingsForm.safeParse(outOfRange))).toEqual(["humidifier.humidity_on_below: On below (%) must be between 0 and 100"]);
    const missing = withValue("humidifier.humidity_off_above", "");
    expect(allErrors(profileSettingsForm.safeParse(missing))).toEqual(["humidifier.humidity_off_above: Off above (%) is required"]);
  });
});

describe("profile settings: the server holds the form's limits", () => {
  const config = (path: string, value: number) => {
    const c: Record<string, Record<string, unknown>> = {
      irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
      ventilation: { co2_threshold: 800 },
      ac: { based_on: "room_temp", target_temp: 18 },
      humidifier: { humidity_on_below: 85, humidity_off_above: 92 },
    };
    const [group, key] = path.split(".") as [string, string];
    c[group]![key] = value;
    return c;
  };
  const serverErrors = (c: unknown) => {
    const out = profileConfigInput(c);
    return out instanceof type.errors ? [...out].map((e) => `${e.path.join(".")}: ${e.message}`) : [];
  };
  const formErrors = (c: Record<string, Record<string, unknown>>) => allErrors(profileSettingsForm.safeParse(c));

  // [field, server's name for it, min, max]
  const limits: [string, string, number, number][] = [
    ["irrigation.on_cycle_hours", "Irrigation on cycle (hours)", 0, 168],
    ["irrigation.off_cycle_liters", "Irrigation off cycle (liters)", 0, 100_000],
    ["irrigation.soil_moisture_on", "Soil moisture on (%)", 0, 100],
    ["irrigation.soil_moisture_off", "Soil moisture off (%)", 0, 100],
    ["ventilation.co2_threshold", "CO2 threshold (ppm)", 0, 50_000],
    ["ac.target_temp", "AC target temperature (°C)", -20, 60],
    ["humidifier.humidity_on_below", "Humidifier on below (%)", 0, 100],
    ["humidifier.humidity_off_above", "Humidifier off above (%)", 0, 100],
  ];

  it.each(limits)("%s: both accept its limits and refuse just beyond them", (path, name, min, max) => {
    // At an edge the pair's order may be broken (on below 100 with off above 92): only range errors count here.
    const rangeErrors = (errors: string[]) => errors.filter((e) => e.includes("must be between"));
    for (const edge of [min, max]) {
      expect(rangeErrors(serverErrors(config(path, edge)))).toEqual([]);
      expect(rangeErrors(formErrors(config(path, edge)))).toEqual([]);
    }
    for (const beyond of [min - 0.5, max + 0.5]) {
      expect(serverErrors(config(path, beyond))).toEqual([`${path}: ${name} must be between ${min} and ${max}`]);
      expect(formErrors(config(path, beyond))).toHaveLength(1);
    }
  });

  it("refuses both contradictions at their fields' paths, with the values in the message", () => {
    const c = config("ac.target_temp", 18);
    c.irrigation!.soil_moisture_on = 70;
    c.irrigation!.soil_moisture_off = 60;
    c.humidifier!.humidity_on_below = 92;
    c.humidifier!.humidity_off_above = 92;
    expect(serverErrors(c).sort()).toEqual(
      [
        "irrigation.soil_moisture_on: Soil moisture on (70 %) must be below Soil moisture off (60 %)",
        "humidifier.humidity_on_below: Humidifier on below (92 %) must be below Humidifier off above (92 %)",
      ].sort(),
    );
  });
});
