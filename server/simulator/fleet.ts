import { SimulatedMcu, type FleetDevice } from "./simulated-mcu.ts";

export interface FleetOptions {
  url: string;
  devices: FleetDevice[];
  /** Telemetry reports per second per device. */
  hz: number;
  /** Simulated seconds per real second: >1 makes the rooms change faster than life. */
  speed?: number;
  keepalive?: number;
  /** How many devices connect at once. */
  connectConcurrency?: number;
  log?: (msg: string) => void;
  /** A device switched to a new key (see SimulatedMcu). */
  onKey?: (mac: string, key: string) => void;
  /** Telemetry's QoS (SimulatedMcuOptions.telemetryQos). */
  telemetryQos?: 0 | 1;
}

export interface Fleet {
  mcus: SimulatedMcu[];
  reportsSent(): number;
  /**
   * Stops every device. By default they leave silently: the demo fleet stops with the server and
   * its broker, which is no device going offline (no status, no last-will, no alert). `announce`
   * has each say offline, as devices switched off do.
   */
  stop(options?: { announce?: boolean }): Promise<void>;
}

/**
 * Runs many simulated MCUs on one timer (never a timer per device): each tick advances every room
 * and lets the devices whose turn it is report, spread evenly over the report period.
 */
export async function startFleet(o: FleetOptions): Promise<Fleet> {
  const speed = o.speed ?? 1;
  const periodMs = 1000 / o.hz;
  const tickMs = Math.min(100, periodMs);
  const mcus = o.devices.map((device) => new SimulatedMcu({ url: o.url, device, keepalive: o.keepalive, log: o.log, onKey: o.onKey, telemetryQos: o.telemetryQos }));

  const concurrency = o.connectConcurrency ?? 50;
  for (let i = 0; i < mcus.length; i += concurrency) {
    await Promise.all(mcus.slice(i, i + concurrency).map((m) => m.start()));
  }

  const start = Date.now();
  const nextReport = mcus.map((_, i) => start + (periodMs * i) / mcus.length);
  let last = start;
  const timer = setInterval(() => {
    const now = Date.now();
    const dt = ((now - last) / 1000) * speed;
    last = now;
    for (let i = 0; i < mcus.length; i++) {
      const mcu = mcus[i]!;
      mcu.step(dt);
      if (now >= nextReport[i]!) {
        mcu.report();
        // Skip reports missed while the process was busy rather than bursting them out.
        nextReport[i] = Math.max(nextReport[i]! + periodMs, now);
      }
    }
  }, tickMs);

  return {
    mcus,
    reportsSent: () => mcus.reduce((n, m) => n + m.reportsSent, 0),
    async stop({ announce = false } = {}) {
      clearInterval(timer);
      await Promise.all(mcus.map((m) => m.stop({ silent: !announce })));
    },
  };
}
