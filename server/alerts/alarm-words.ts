import type { ProfileConfig } from "../../src/contract/entities.ts";
import type { BreachType } from "../../src/contract/conditions.ts";
import type { TitleAndBody } from "../texts.ts";

/**
 * The words of the alarms about an MCU or its profile, kept with each alarm: the server writes
 * them in English for its title and body, each person a call-out reaches in their own language,
 * and the app says them in its reader's (src/ui/features/alarms/alarm-words.ts). A sensor's
 * alarms have theirs in sensor-health.ts.
 */

/** An MCU offline: in English "Room A went offline", "Room A (North Barn) stopped reporting." */
export const mcuOfflineWords = (name: string, farm: string): TitleAndBody => ({
  title: { key: "alarms.mcuOffline.title", values: { name } },
  body: { key: "alarms.mcuOffline.body", values: { name, farm } },
});

/** A low battery, at `level` % (read as it is, rounded to a whole): in English "Room A: battery low", "Battery at 22%. Replace or charge it soon." */
export const batteryLowWords = (name: string, level: number): TitleAndBody => ({
  title: { key: "alarms.batteryLow.title", values: { name } },
  body: { key: "alarms.batteryLow.body", values: { level: Math.round(level) } },
});

/** A value past a profile limit as the alarm texts write it: a tenth for a percentage or a temperature, whole ppm. */
const tenths = (v: number) => ({ num: Math.round(v * 10) / 10, decimals: 1 });

/**
 * The words of a profile alarm (thresholdBreaches decides that there is one; its texts are the
 * same in English): the MCU's name, the value read and the limit it is past.
 */
export function breachWords(name: string, type: BreachType, value: number, config: ProfileConfig): TitleAndBody {
  switch (type) {
    case "humidity_low":
      return {
        title: { key: "alarms.humidityLow.title", values: { name } },
        body: { key: "alarms.humidityLow.body", values: { value: tenths(value), limit: config.humidifier.humidity_on_below } },
      };
    case "co2_high":
      return {
        title: { key: "alarms.co2High.title", values: { name } },
        body: { key: "alarms.co2High.body", values: { value: Math.round(value), limit: config.ventilation.co2_threshold } },
      };
    case "soil_moisture_low":
      return {
        title: { key: "alarms.soilMoistureLow.title", values: { name } },
        body: { key: "alarms.soilMoistureLow.body", values: { value: tenths(value), limit: config.irrigation.soil_moisture_on } },
      };
    case "temperature_off_target":
      return {
        title: { key: "alarms.temperatureOffTarget.title", values: { name } },
        body: {
          key: config.ac.based_on === "room_temp" ? "alarms.temperatureOffTarget.bodyRoom" : "alarms.temperatureOffTarget.bodySoil",
          values: { value: tenths(value), target: config.ac.target_temp },
        },
      };
  }
}
