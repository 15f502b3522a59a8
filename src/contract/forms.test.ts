import { describe, expect, it } from "vitest";
import { loginForm, mcuForm, profileSettingsForm, registerForm, settingsPasswordForm } from "./forms.ts";

const firstError = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }, field: string) =>
  r.error?.issues.find((i) => i.path.join(".") === field)?.message;

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
