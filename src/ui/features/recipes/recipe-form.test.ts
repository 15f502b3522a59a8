import { parseWithZod } from "@conform-to/zod/v4";
import { type } from "arktype";
import { describe, expect, it } from "vitest";
import { recipeRequest, type RecipeRequest } from "../../../contract/api.ts";
import type { FieldError } from "../../../contract/errors.ts";
import type { RecipePhase } from "../../../contract/grow.ts";
import { AppError } from "../../../../server/errors.ts";
import { parse as serverCheck } from "../../../../server/http/validate.ts";
import { fieldOfRefusal, nextPhaseText, phaseText, previewPhasesOf, recipeForm } from "./recipe-form.ts";
import { startTexts } from "../../../test-support/i18n.ts";

// The texts are the catalogue's, in English.
await startTexts();

const pinning: RecipePhase = {
  name: "Pinning",
  days: 5,
  confirm: "Pins visible",
  config: {
    irrigation: { on_cycle_hours: 6, off_cycle_liters: 2, soil_moisture_on: 55, soil_moisture_off: 70 },
    ventilation: { co2_threshold: 800 },
    ac: { based_on: "room_temp", target_temp: 18 },
    humidifier: { humidity_on_below: 88, humidity_off_above: 95 },
  },
  ramps: [{ setting: "ac.target_temp", to: 15 }],
};

/** The form's fields as the browser would send them, by their Conform names. */
function formData(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

const phaseFields = (i: number, overrides: Record<string, string> = {}) => ({
  [`phases[${i}].name`]: "Fruiting",
  [`phases[${i}].days`]: "7",
  [`phases[${i}].config.irrigation.on_cycle_hours`]: "6",
  [`phases[${i}].config.irrigation.off_cycle_liters`]: "2",
  [`phases[${i}].config.irrigation.soil_moisture_on`]: "55",
  [`phases[${i}].config.irrigation.soil_moisture_off`]: "70",
  [`phases[${i}].config.ventilation.co2_threshold`]: "800",
  [`phases[${i}].config.ac.based_on`]: "room_temp",
  [`phases[${i}].config.ac.target_temp`]: "18",
  [`phases[${i}].config.humidifier.humidity_on_below`]: "85",
  [`phases[${i}].config.humidifier.humidity_off_above`]: "92",
  ...Object.fromEntries(Object.entries(overrides).map(([k, v]) => [`phases[${i}].${k}`, v])),
});

const parse = (fields: Record<string, string>) => parseWithZod(formData(fields), { schema: recipeForm });
const errorsOf = (fields: Record<string, string>) => {
  const out = parse(fields);
  return out.status === "error" ? out.error : null;
};

describe("the recipe form", () => {
  it("turns the typed phases into the request the server accepts, ramps and confirmation included", () => {
    const out = parse({
      name: " Oyster, fast ",
      species: "Oyster",
      ...phaseFields(0, { waits: "on", confirm: " Pins visible ", "ramp.ac.target_temp.on": "on", "ramp.ac.target_temp.to": "15" }),
      ...phaseFields(1, { name: "Rest", "ramp.humidifier.humidity_on_below.to": "50" }),
    });
    expect(out.status).toBe("success");
    if (out.status !== "success") return;
    expect(out.value.name).toBe("Oyster, fast");
    expect(out.value.phases[0]).toEqual({ ...pinning, name: "Fruiting", days: 7, config: { ...pinning.config, humidifier: { humidity_on_below: 85, humidity_off_above: 92 } } });
    // A ramp whose toggle is off is not sent, whatever its end value says.
    expect(out.value.phases[1]!.ramps).toEqual([]);
    expect(out.value.phases[1]!.confirm).toBeNull();
    const checked = recipeRequest.schema(out.value);
    expect(checked instanceof type.errors ? checked.summary : "accepted").toBe("accepted");
  });

  it("says what is missing or out of range under each field, with the server's words", () => {
    const error = errorsOf({
      name: "",
      ...phaseFields(0, { name: "", days: "0", waits: "on", confirm: "", "ramp.ac.target_temp.on": "on", "ramp.ac.target_temp.to": "61" }),
      ...phaseFields(1, { days: "2.5", "config.humidifier.humidity_on_below": "95", "ramp.humidifier.humidity_off_above.on": "on" }),
    });
    expect(error).toMatchObject({
      name: ["Name is required"],
      "phases[0].name": ["Phase name is required"],
      "phases[0].days": ["Days must be between 1 and 365"],
      "phases[0].confirm": ["What the grower confirms is required"],
      "phases[0].ramp.ac.target_temp.to": ["AC target temperature (°C) at the end of the ramp must be between -20 and 60"],
      "phases[1].days": ["Days must be a whole number"],
      "phases[1].config.humidifier.humidity_on_below": ["Must be below Humidifier off above (92 %)"],
      "phases[1].ramp.humidifier.humidity_off_above.to": ["Humidifier off above (%) at the end of the ramp is required"],
    });
  });

  it("refuses a ramp that crosses the other end of a band by the end of the phase, under that ramp", () => {
    expect(errorsOf({ name: "R", ...phaseFields(0, { "ramp.humidifier.humidity_on_below.on": "on", "ramp.humidifier.humidity_on_below.to": "93" }) })).toEqual({
      "phases[0].ramp.humidifier.humidity_on_below.to": ["At the end of the phase, Humidifier on below (93 %) must be below Humidifier off above (92 %)"],
    });
  });

  it("needs at least one phase", () => {
    expect(errorsOf({ name: "R" })).toMatchObject({ phases: ["A recipe needs at least one phase"] });
  });
});

describe("the editor's phases", () => {
  it("reads a saved phase back as the text it was typed as", () => {
    const text = phaseText(pinning);
    expect(text).toMatchObject({ name: "Pinning", days: "5", waits: "on", confirm: "Pins visible", ramp: { ac: { target_temp: { on: "on", to: "15" } } } });
    expect(text.config.ac).toEqual({ based_on: "room_temp", target_temp: "18" });
  });

  it("starts a new phase where the one before it ends", () => {
    const next = nextPhaseText(phaseText(pinning));
    expect(next.name).toBe("");
    expect(next.days).toBe("");
    expect(next.config.ac).toEqual({ based_on: "room_temp", target_temp: "15" });
    expect(next.config.humidifier).toEqual({ humidity_on_below: "88", humidity_off_above: "95" });
    expect(next.ramp).toEqual({});
  });

  it("previews what can be drawn while the grower types: phases with valid days, NaN for a value not yet typed", () => {
    const phases = previewPhasesOf({ phases: [{ ...phaseText(pinning), config: { ...phaseText(pinning).config, ventilation: { co2_threshold: "" } } }, { name: "", days: "x" }, { name: "", days: "3" }] });
    expect(phases.map((p) => [p.name, p.days, p.confirm])).toEqual([
      ["Pinning", 5, "Pins visible"],
      ["Phase 2", 3, null],
    ]);
    expect(phases[0]!.config.ventilation.co2_threshold).toBeNaN();
    expect(phases[0]!.ramps).toEqual([{ setting: "ac.target_temp", to: 15 }]);
  });
});

describe("a refusal of the server", () => {
  const body: RecipeRequest = { name: "R", species: "", phases: [{ ...pinning, confirm: null }] };
  /** The field errors the server answers the body with (its own check, as the data core hands them on). */
  function refusedFields(sent: RecipeRequest): readonly FieldError[] {
    try {
      serverCheck(recipeRequest, sent);
    } catch (err) {
      if (err instanceof AppError && err.errors) return err.errors;
      throw err;
    }
    throw new Error("the server took the recipe");
  }

  it("is shown under the field the server names, whatever language it is said in", () => {
    const hot = { ...body, phases: [{ ...body.phases[0]!, config: { ...pinning.config, ac: { based_on: "room_temp" as const, target_temp: 70 } } }] };
    expect(fieldOfRefusal(hot, refusedFields(hot))).toBe("phases[0].config.ac.target_temp");
    const far = { ...body, phases: [{ ...body.phases[0]!, ramps: [{ setting: "ac.target_temp" as const, to: 99 }] }] };
    expect(fieldOfRefusal(far, refusedFields(far))).toBe("phases[0].ramp.ac.target_temp.to");
    const unnamed = { ...body, name: " " };
    expect(fieldOfRefusal(unnamed, refusedFields(unnamed))).toBe("name");
  });

  it("belongs to the whole form when the server names no field of it", () => {
    expect(fieldOfRefusal(body, [])).toBeNull();
    const band = { ...body, phases: [{ ...body.phases[0]!, ramps: [{ setting: "humidifier.humidity_on_below" as const, to: 99 }] }] };
    expect(fieldOfRefusal(band, refusedFields(band))).toBeNull();
  });
});
