import { DOOR_OPEN_LEAK } from "./physics.ts";
import type { SimulatedMcu } from "./simulated-mcu.ts";

export interface IncidentOptions {
  /** Real milliseconds between the starts of two incidents. */
  everyMs: number;
  /** How long a door stays open, real milliseconds. */
  lastsMs?: number;
  /** When the first one starts, after `startIncidents`. */
  firstAfterMs?: number;
  log?: (msg: string) => void;
  /** How the log names a room: its MCU's name (by MAC), or the MAC. */
  nameOf?: (mac: string) => string | undefined;
}

export interface Incidents {
  /** The MAC of the room whose door is open now, if any. */
  current(): string | null;
  stop(): void;
}

/**
 * The demo's trouble, so that a new user sees an alarm open and resolve without touching a
 * device: now and then someone leaves a grow room's door open. Dry, warm air floods in (physics'
 * DOOR_OPEN_LEAK): within a minute or two the room's humidity (and, with a room-temperature AC,
 * its temperature) is out of the linked profile, and past the alerts' grace period an alarm opens;
 * once the door is shut the controllers bring the room back and the alarm resolves. Each time
 * it is the next room with a linked profile (a room without one has no limits to leave).
 */
export function startIncidents(mcus: readonly SimulatedMcu[], o: IncidentOptions): Incidents {
  const lastsMs = o.lastsMs ?? 10 * 60_000;
  const name = (mac: string) => o.nameOf?.(mac) ?? `${mac}'s room`;
  let next = 0;
  let open: SimulatedMcu | null = null;
  let closeTimer: NodeJS.Timeout | undefined;

  const close = () => {
    if (!open) return;
    open.room.airLeak = 1;
    o.log?.(`Demo: the door of ${name(open.mac)} is shut again`);
    open = null;
  };

  const begin = () => {
    const linked = mcus.filter((m) => m.configReceived && m.connected);
    if (linked.length === 0 || open) return;
    const mcu = linked[next++ % linked.length]!;
    open = mcu;
    mcu.room.airLeak = DOOR_OPEN_LEAK;
    o.log?.(`Demo: the door of ${name(mcu.mac)} is left open for ${Math.round(lastsMs / 60_000)} min (its alarms open after the grace period)`);
    closeTimer = setTimeout(close, lastsMs);
    closeTimer.unref();
  };

  let every: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    begin();
    every = setInterval(begin, o.everyMs);
    every.unref();
  }, o.firstAfterMs ?? 60_000);
  first.unref();

  return {
    current: () => open?.mac ?? null,
    stop() {
      clearTimeout(first);
      clearInterval(every);
      clearTimeout(closeTimer);
      close();
    },
  };
}
