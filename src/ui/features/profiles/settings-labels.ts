import type { ProfileConfig } from "../../../contract/entities.ts";

/**
 * The settings' labels with their SPEC §9 units. They match the names in profileSettingsForm's
 * messages ("On cycle (hours) is required"), so a message names the field the farmer sees.
 */
export const SETTING_LABELS = {
  irrigation: {
    on_cycle_hours: "On cycle (hours)",
    off_cycle_liters: "Off cycle (liters)",
    soil_moisture_on: "Soil moisture on (%)",
    soil_moisture_off: "Soil moisture off (%)",
  },
  ventilation: { co2_threshold: "CO2 threshold (ppm)" },
  ac: { based_on: "Based on", target_temp: "Target temperature (°C)" },
  humidifier: { humidity_on_below: "On below (%)", humidity_off_above: "Off above (%)" },
} as const;

export const AC_BASIS_LABELS: Record<ProfileConfig["ac"]["based_on"], string> = {
  soil_temp: "Soil temperature",
  room_temp: "Room temperature",
};
