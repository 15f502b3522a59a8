import type { Mcu } from "./entities.ts";
import type { McuCardView, McuManagerCardView } from "./live.ts";
import { AC_BASES, CONTROLLER_TYPES, MCU_STATUSES, SENSOR_TYPES } from "./enums.ts";

/**
 * A large fleet's first screen of cards, before the data core has loaded: the worker's first file
 * requests the MCU list's head at once (early-fetch.ts) and, while the core (most of it the schema
 * library, ~0.5-0.8 s to evaluate on a slow machine) still loads, sends the records to the page
 * when they have the shape of SPEC §3's MCU. Checked field by field, not with the contract's
 * schema, which is what is still loading: every field a card, its device tiles and its judgement
 * of the readings read, with their types and closed sets. The core then validates the same answer
 * with the schema and its records replace these; a list that fails there shows its load error.
 */
export interface FirstMcusMessage {
  kind: "first-mcus";
  mcus: Mcu[];
  /** The cards' views of those records (no live data yet), made in the worker as the core makes them. */
  cards: McuCardView[];
  managerCards: McuManagerCardView[];
}

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isStringOrNull = (v: unknown) => v === null || typeof v === "string";
const oneOf = (values: readonly string[]) => (v: unknown) => typeof v === "string" && values.includes(v);
const numbers = (o: unknown, keys: readonly string[]) => isObject(o) && keys.every((k) => typeof o[k] === "number" && Number.isFinite(o[k]));

const isSensorType = oneOf(SENSOR_TYPES);
const isControllerType = oneOf(CONTROLLER_TYPES);
const isMcuStatus = oneOf(MCU_STATUSES);
const isAcBase = oneOf(AC_BASES);

function isDevice(d: unknown, isType: (v: unknown) => boolean): boolean {
  return isObject(d) && typeof d.name === "string" && typeof d.mac === "string" && isType(d.type);
}

function isProfileConfig(c: unknown): boolean {
  return (
    isObject(c) &&
    numbers(c.irrigation, ["on_cycle_hours", "off_cycle_liters", "soil_moisture_on", "soil_moisture_off"]) &&
    numbers(c.ventilation, ["co2_threshold"]) &&
    numbers(c.ac, ["target_temp"]) &&
    isAcBase((c.ac as Record<string, unknown>).based_on) &&
    numbers(c.humidifier, ["humidity_on_below", "humidity_off_above"])
  );
}

function isLink(l: unknown): boolean {
  return isObject(l) && isInt(l.profile_id) && isObject(l.profile) && typeof l.profile.name === "string" && isProfileConfig(l.profile.config);
}

/** Stored readings as a card reads them: each sensor block present holds finite numbers. */
function isReadings(r: unknown): boolean {
  if (r === null || typeof r === "string") return true;
  if (!isObject(r)) return false;
  const blocks: [string, string[]][] = [["DHT", ["temperature", "humidity"]], ["SOIL_TEMP", ["soil_temperature"]], ["CO2", ["co2"]], ["MOISTURE", ["soil_moisture"]]];
  return blocks.every(([key, fields]) => r[key] === undefined || numbers(r[key], fields));
}

/** One record with the shape of SPEC §3's MCU, as far as a card reads it. */
export function hasFirstScreenShape(m: unknown): m is Mcu {
  return (
    isObject(m) &&
    isInt(m.mcu_id) &&
    typeof m.name === "string" &&
    typeof m.mac === "string" &&
    isInt(m.farm_id) &&
    isObject(m.farm) &&
    typeof m.farm.name === "string" &&
    isInt(m.client_id) &&
    isMcuStatus(m.status) &&
    isReadings(m.readings) &&
    isStringOrNull(m.lastSeen) &&
    Array.isArray(m.controllers) &&
    m.controllers.every((c) => isDevice(c, isControllerType)) &&
    Array.isArray(m.sensors) &&
    m.sensors.every((s) => isDevice(s, isSensorType)) &&
    Array.isArray(m.profile_links) &&
    m.profile_links.every(isLink)
  );
}

/** The list's head if every record has the shape (and there is one), else null: then the core's load shows the list. */
export function firstMcus(body: unknown): Mcu[] | null {
  return Array.isArray(body) && body.length > 0 && body.every(hasFirstScreenShape) ? body : null;
}

export function isFirstMcusMessage(data: unknown): data is FirstMcusMessage {
  return isObject(data) && data.kind === "first-mcus" && Array.isArray(data.mcus) && Array.isArray(data.cards) && Array.isArray(data.managerCards);
}
