import type { Alarm } from "../src/contract/alarms-values.ts";
import type { LiveReading, Notification } from "../src/contract/entities.ts";
import type { Batch } from "../src/contract/grow.ts";
import type { McuStatus } from "../src/contract/enums.ts";
import type { Role } from "../src/contract/team.ts";
import type { DeviceCutOff } from "./devices/device-budget.ts";
import type { McuEntry } from "./devices/mcu-directory.ts";

/**
 * What one part of the server tells the others, by name and arguments. The gateway raises what
 * devices said; routes raise the changes the device side, the sockets or the caches must act on;
 * alerts raise what they stored. The parts that act subscribe.
 */
export interface DomainEvents {
  /**
   * A device's reading arrived (`at`: the time it is stamped with). A reading of QoS 1 telemetry
   * carries its delivery (delivery.ts): the realtime server settles it once the reading is out.
   */
  reading: [entry: McuEntry, reading: LiveReading, at: Date];
  /** An MCU's status changed (`previous`: what it was), by a status message or by a reading. */
  deviceStatus: [entry: McuEntry, status: "online" | "offline", previous: McuStatus];
  /** A device was cut off for sending too much (`disconnected`: its connection was closed). */
  sendsTooMuch: [entry: McuEntry, cutOff: DeviceCutOff, disconnected: boolean];
  /** A profile was linked, unlinked or edited: the MCUs' configs must be republished. */
  profileChanged: [clientId: number, mcuIds: number[]];
  /**
   * A batch started or changed (a grower's action, the plan moving on, a harvest, its name): its
   * whole new state goes to the client's open apps, and the configs of its MCUs are worked out again.
   */
  batchChanged: [clientId: number, batch: Batch];
  /** A session ended (sign-out, password change): this node forgets it and its sockets close. */
  sessionEnded: [idHash: string];
  /** MCUs of a client were added, changed or deleted: caches keyed by MAC must forget them. */
  mcusChanged: [clientId: number];
  /**
   * A client registered an MCU under this MAC (new, or an MCU moved to another device): whatever
   * the device said before it was claimed (its retained status) must be heard again.
   */
  mcuClaimed: [clientId: number, mac: string];
  /**
   * A client gave an MCU's device back (deleted the MCU, or moved it to another device): its
   * retained config must go and its device key is rotated, so nothing of this owner reaches the next.
   */
  mcuReleased: [mac: string];
  /** A notification was stored for a client: it goes to the client's open apps (alerts push it themselves, as the client's preferences say). */
  notified: [clientId: number, notification: Notification];
  /** A notice about the account itself was stored (someone tried to register with its email): to the open apps and by push. */
  accountNotice: [clientId: number, notification: Notification];
  /** An alarm opened, changed or resolved: its whole new state goes to the client's open apps. */
  alarmChanged: [clientId: number, alarm: Alarm];
  /** A client stored new notification preferences: this node's copy of them must go. */
  preferencesChanged: [clientId: number];
  /**
   * A person joined a farm, or their role on it changed, or they left or were removed (`role`
   * null): their open apps must see the farm with that role at once, or stop receiving it.
   */
  membershipChanged: [farmId: number, person: number, role: Role | null];
}

export type EventName = keyof DomainEvents;
export type Handler<K extends EventName> = (...args: DomainEvents[K]) => void;

export interface EventBus {
  /** Calls every handler of `name` now, in the order they subscribed; a handler that throws is logged and the others still run. */
  emit<K extends EventName>(name: K, ...args: DomainEvents[K]): void;
  /** Subscribes `handler` to `name`; returns the unsubscribe. */
  on<K extends EventName>(name: K, handler: Handler<K>): () => void;
}

/**
 * The server's event bus. It exists before anything is built, so every part subscribes while the
 * server is assembled, before it listens: an event is never raised into a gap where no one is
 * wired yet. Handlers run synchronously; what they start (a publish, a database write) they own,
 * errors included.
 */
export function createEventBus(log: (msg: string) => void): EventBus {
  // Stored untyped: `on` and `emit` keep each name's handlers and arguments together.
  type AnyHandler = (...args: unknown[]) => void;
  const handlers = new Map<EventName, AnyHandler[]>();
  return {
    emit(name, ...args) {
      const list = handlers.get(name);
      if (!list) return;
      for (const handler of list) {
        try {
          handler(...args);
        } catch (err) {
          log(`event ${name}: ${(err as Error).message}`);
        }
      }
    },
    on(name, handler) {
      const list = handlers.get(name) ?? [];
      list.push(handler as unknown as AnyHandler);
      handlers.set(name, list);
      return () => {
        const at = list.indexOf(handler as unknown as AnyHandler);
        if (at >= 0) list.splice(at, 1);
      };
    },
  };
}
