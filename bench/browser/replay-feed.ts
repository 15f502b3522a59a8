import type { LiveReading } from "../../src/contract/entities.ts";

/**
 * A probe's CO2 is its send time modulo this many ms, shown as an integer "12,345 ppm" in its card
 * and decoded in the page (bench/browser/page-probe.js holds the same constant).
 */
export const CO2_MODULO_MS = 100_000;

interface Room {
  temperature: number;
  humidity: number;
  soil: number;
  co2: number;
  moisture: number;
  battery: number;
  devices: Record<"Irrigation" | "AC" | "Ventilation" | "Humidifier", { status: boolean; auto: boolean }>;
}

export interface ReplayFeedOptions {
  macs: readonly string[];
  /** MCUs whose CO2 carries the send time. */
  probeMacs: ReadonlySet<string>;
  /** Readings per second per MCU. */
  hz: number;
  /** Hands one reading to the realtime layer (system.realtime.reading). */
  send(mac: string, reading: LiveReading): void;
  /** Timer period: every MCU whose turn has come reports at each tick. */
  tickMs?: number;
}

export interface ReplayFeed {
  /** The newest reading of every MCU that reported. */
  latest: Map<string, LiveReading>;
  sent(): number;
  stop(): void;
}

/** A tiny deterministic generator, so runs see the same stream. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/**
 * Readings generated in-process and handed straight to the realtime layer, with one timer for the
 * whole fleet (each MCU's reports spread evenly over the period), so that the browser's cost is
 * measured apart from MQTT ingest. Values wander like a grow room's (most readings change what a
 * card shows, as real sensors' jitter does); a device switches now and then.
 */
export function startReplayFeed(o: ReplayFeedOptions): ReplayFeed {
  const random = rng(0x5eed);
  const periodMs = 1000 / o.hz;
  const tickMs = o.tickMs ?? 20;
  const rooms: Room[] = o.macs.map(() => ({
    temperature: 16 + random() * 6,
    humidity: 80 + random() * 12,
    soil: 15 + random() * 6,
    co2: 600 + random() * 600,
    moisture: 40 + random() * 25,
    battery: 40 + random() * 60,
    devices: {
      Irrigation: { status: random() < 0.3, auto: random() < 0.7 },
      AC: { status: random() < 0.5, auto: random() < 0.7 },
      Ventilation: { status: random() < 0.5, auto: random() < 0.7 },
      Humidifier: { status: random() < 0.5, auto: random() < 0.7 },
    },
  }));
  const latest = new Map<string, LiveReading>();
  const start = Date.now();
  const next = o.macs.map((_, i) => start + (periodMs * i) / o.macs.length);
  let sent = 0;
  const walk = (v: number, step: number, min: number, max: number) => Math.min(max, Math.max(min, v + (random() - 0.5) * step));

  function readingOf(mac: string, room: Room, now: number): LiveReading {
    room.temperature = walk(room.temperature, 0.2, 12, 26);
    room.humidity = walk(room.humidity, 0.6, 70, 98);
    room.soil = walk(room.soil, 0.1, 12, 24);
    room.co2 = walk(room.co2, 20, 400, 1400);
    room.moisture = walk(room.moisture, 0.5, 30, 70);
    room.battery = Math.max(35, room.battery - random() * 0.001);
    // Now and then a device switches (about once in 40 s per MCU): the tiles' update path too.
    if (random() < 0.005) {
      const d = room.devices[(["Irrigation", "AC", "Ventilation", "Humidifier"] as const)[Math.floor(random() * 4)]!];
      d.status = !d.status;
    }
    const { Irrigation, AC, Ventilation, Humidifier } = room.devices;
    const co2 = o.probeMacs.has(mac) ? now % CO2_MODULO_MS : Math.round(room.co2);
    return {
      DHT: { temperature: +room.temperature.toFixed(1), humidity: +room.humidity.toFixed(1), count: 1 },
      SOIL_TEMP: { soil_temperature: +room.soil.toFixed(1), count: 1 },
      CO2: { co2, count: 1 },
      MOISTURE: { soil_moisture: +room.moisture.toFixed(1), count: 1 },
      Irrigation: { ...Irrigation, session: Irrigation.status },
      AC: { ...AC },
      Ventilation: { ...Ventilation },
      Humidifier: { ...Humidifier },
      batteryLevel: Math.round(room.battery),
      lastUpdated: new Date(now).toISOString(),
    };
  }

  const timer = setInterval(() => {
    const now = Date.now();
    for (let i = 0; i < o.macs.length; i++) {
      if (now < next[i]!) continue;
      const mac = o.macs[i]!;
      const reading = readingOf(mac, rooms[i]!, now);
      latest.set(mac, reading);
      o.send(mac, reading);
      sent++;
      // Reports missed while the process was busy are skipped, not burst out, and each MCU keeps its
      // own phase: real devices do not fall into step because their server was slow for a moment
      // (clamping to "now" did that, and the whole fleet then reported in one tick).
      next[i] = next[i]! + periodMs * Math.max(1, Math.ceil((now - next[i]!) / periodMs));
    }
  }, tickMs);

  return {
    latest,
    sent: () => sent,
    stop: () => clearInterval(timer),
  };
}
