import { switchWhy } from "./switch-reasons.ts";

/**
 * A controller's state in a reading: on or off, and whether its automation drives it. `why`: the
 * rule its automation switched it by, only in the reading that reports that switch (absent from
 * nearly every reading, so the check of one costs a key look-up).
 */
const CONTROLLER = { status: "boolean", auto: "boolean", "why?": switchWhy } as const;

/**
 * The groups and fields of a reading, declared once for its two checks: what a device may send
 * (mqtt.ts `telemetryMessage`, bounded by what the sensors can measure) and the live reading the
 * server serves (entities.ts `liveReading`). `m` is each check's arktype definition of the
 * measured fields; `count` is how many sensors of that kind the group's values come from. A type
 * parameter per field keeps each definition's literal type, which arktype parses for the inferred
 * type (a field read from one generic object would be typed as its constraint, `string`).
 */
export function readingGroups<Temperature extends string, Humidity extends string, SoilTemperature extends string, Co2 extends string, SoilMoisture extends string, Count extends string>(m: {
  temperature: Temperature;
  humidity: Humidity;
  soil_temperature: SoilTemperature;
  co2: Co2;
  soil_moisture: SoilMoisture;
  count: Count;
}) {
  return {
    "DHT?": { temperature: m.temperature, humidity: m.humidity, count: m.count },
    "SOIL_TEMP?": { soil_temperature: m.soil_temperature, count: m.count },
    "CO2?": { co2: m.co2, count: m.count },
    /** Soil moisture in %, from Moisture sensors (an addition to SPEC §3 for the irrigation alerts). */
    "MOISTURE?": { soil_moisture: m.soil_moisture, count: m.count },
    "Irrigation?": { ...CONTROLLER, "session?": "boolean" },
    "AC?": CONTROLLER,
    "Ventilation?": CONTROLLER,
    "Humidifier?": CONTROLLER,
    /** 0-100 %, reported by the MCU. */
    "batteryLevel?": "0 <= number <= 100",
  } as const;
}
