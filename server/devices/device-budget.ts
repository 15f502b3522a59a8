/**
 * How many messages one device may send: a token bucket per MAC, refilled at `perSecond` up to
 * `burst`. A real MCU reports every few seconds; one that sends as fast as its link allows (a
 * firmware bug, a stolen device key) would otherwise have every message parsed, fanned out and
 * written, and hold up every other tenant's devices and requests.
 *
 * A message over budget is dropped (counted) by whoever asked, before anything else is done with
 * it. A device that stays over budget for `overLimitSeconds` distinct seconds within `windowMs`
 * is cut off for `cooldownMs`: every message dropped, and with the embedded broker its connection
 * closed and refused until then. Each cut-off is announced to the listeners once, with what the
 * device sent; one that follows the previous cooldown within `windowMs` belongs to the same
 * episode (`again`), so that the owner is told once, not every minute the device keeps at it.
 *
 * One clock (`now`) and one sweep timer serve every device: a device costs a map entry while it
 * is heard, and is forgotten once idle.
 */
export interface DeviceBudgetOptions {
  /** Messages a device may send per second, on average. */
  perSecond: number;
  /** Messages it may send at once, after being quiet (the bucket's size). */
  burst: number;
  /** Seconds over budget (each second with a message dropped) within `windowMs` that cut a device off. */
  overLimitSeconds?: number;
  windowMs?: number;
  /** How long a device is cut off. */
  cooldownMs?: number;
  /** A device neither heard from nor cut off for this long is forgotten. */
  idleMs?: number;
  /** Monotonic milliseconds. */
  now?: () => number;
  /** How often idle devices are forgotten (0: never by a timer; `sweep()` by hand). */
  sweepEveryMs?: number;
}

export const DEFAULT_DEVICE_MESSAGES_PER_SECOND = 20;
export const DEFAULT_DEVICE_MESSAGE_BURST = 40;

/** What a device sent, as its owner is told when it is cut off. */
export interface DeviceCutOff {
  mac: string;
  /** Messages heard from it from the start of its first second over budget to the cut-off. */
  messages: number;
  /** Over how many seconds (those it was heard in, from the first over budget to this one). */
  seconds: number;
  perSecond: number;
  cooldownMs: number;
  /** It was cut off before, and came back over budget within a window of the end of that cooldown. */
  again: boolean;
}

export interface DeviceBudgetStats {
  /** Messages dropped over budget (a device cut off: all of its messages). */
  dropped: number;
  /** Times a device was cut off. */
  cutOffs: number;
  /** Devices cut off right now. */
  coolingDown: number;
  /** Devices whose budget is kept in memory right now. */
  tracked: number;
}

interface Account {
  tokens: number;
  refilledAt: number;
  heardAt: number;
  /** The second (of `now`) the last message was heard in, and how many were heard in it. */
  second: number;
  inSecond: number;
  /** Since the first second over budget of this window: its start, seconds over budget, messages heard. */
  windowStart: number;
  overSeconds: number;
  lastOverSecond: number;
  windowMessages: number;
  /** Cut off until then (0: never cut off). */
  cutOffUntil: number;
}

export class DeviceBudget {
  readonly perSecond: number;
  readonly burst: number;
  readonly cooldownMs: number;
  private readonly overLimitSeconds: number;
  private readonly windowMs: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  private readonly accounts = new Map<string, Account>();
  private readonly listeners: ((cutOff: DeviceCutOff) => void)[] = [];
  private readonly timer: NodeJS.Timeout | undefined;
  private dropped = 0;
  private cutOffs = 0;

  constructor(o: DeviceBudgetOptions) {
    if (!(o.perSecond > 0) || !(o.burst >= 1)) throw new Error("a device budget needs a rate above 0 and a burst of at least 1");
    this.perSecond = o.perSecond;
    this.burst = o.burst;
    this.overLimitSeconds = o.overLimitSeconds ?? 10;
    this.windowMs = o.windowMs ?? 60_000;
    this.cooldownMs = o.cooldownMs ?? 60_000;
    this.idleMs = o.idleMs ?? 2 * this.windowMs;
    this.now = o.now ?? (() => performance.now());
    const every = o.sweepEveryMs ?? 10_000;
    if (every > 0) {
      this.timer = setInterval(() => this.sweep(), every);
      this.timer.unref();
    }
  }

  /** Called with each cut-off (the hot path's caller, synchronously: act later, not inside). */
  onCutOff(listener: (cutOff: DeviceCutOff) => void): void {
    this.listeners.push(listener);
  }

  /**
   * The hot path: one message from `mac`. True: handle it. False: drop it (counted here). No
   * allocation but a device's first message.
   */
  admit(mac: string): boolean {
    const t = this.now();
    let a = this.accounts.get(mac);
    if (a === undefined) {
      a = { tokens: this.burst, refilledAt: t, heardAt: t, second: -1, inSecond: 0, windowStart: 0, overSeconds: 0, lastOverSecond: -1, windowMessages: 0, cutOffUntil: 0 };
      this.accounts.set(mac, a);
    }
    a.heardAt = t;
    const second = Math.floor(t / 1000);
    if (second !== a.second) {
      a.second = second;
      a.inSecond = 0;
    }
    a.inSecond++;
    if (a.overSeconds > 0) a.windowMessages++;
    if (t < a.cutOffUntil) {
      this.dropped++;
      return false;
    }
    a.tokens = Math.min(this.burst, a.tokens + ((t - a.refilledAt) * this.perSecond) / 1000);
    a.refilledAt = t;
    if (a.tokens >= 1) {
      a.tokens--;
      return true;
    }
    this.dropped++;
    if (second !== a.lastOverSecond) this.overSecond(mac, a, t, second);
    return false;
  }

  /** A second with a message dropped: a device over budget too often is cut off. */
  private overSecond(mac: string, a: Account, t: number, second: number): void {
    a.lastOverSecond = second;
    if (a.overSeconds === 0 || t - a.windowStart >= this.windowMs) {
      // A new window, from the start of this second (what was heard in it counts).
      a.windowStart = second * 1000;
      a.overSeconds = 0;
      a.windowMessages = a.inSecond;
    }
    a.overSeconds++;
    if (a.overSeconds < this.overLimitSeconds) return;
    const again = a.cutOffUntil > 0 && a.windowStart - a.cutOffUntil < this.windowMs;
    const cutOff: DeviceCutOff = {
      mac,
      messages: a.windowMessages,
      seconds: second - a.windowStart / 1000 + 1,
      perSecond: this.perSecond,
      cooldownMs: this.cooldownMs,
      again,
    };
    a.cutOffUntil = t + this.cooldownMs;
    a.overSeconds = 0;
    a.windowMessages = 0;
    // Back from its cooldown, a device starts with a full bucket.
    a.tokens = this.burst;
    a.refilledAt = a.cutOffUntil;
    this.cutOffs++;
    for (const listener of this.listeners) listener(cutOff);
  }

  /** Whether `mac` is cut off right now (a connection it opens is refused). */
  isCutOff(mac: string): boolean {
    const a = this.accounts.get(mac);
    return a !== undefined && this.now() < a.cutOffUntil;
  }

  /** Milliseconds until `mac` may send again (0: it may now). */
  cutOffFor(mac: string): number {
    const a = this.accounts.get(mac);
    return a === undefined ? 0 : Math.max(0, a.cutOffUntil - this.now());
  }

  /** Forgets the devices idle for `idleMs` whose cut-off (if any) ended over a window ago. */
  sweep(): void {
    const t = this.now();
    for (const [mac, a] of this.accounts) {
      if (t - a.heardAt >= this.idleMs && t - a.cutOffUntil >= this.windowMs) this.accounts.delete(mac);
    }
  }

  stats(): DeviceBudgetStats {
    const t = this.now();
    let coolingDown = 0;
    for (const a of this.accounts.values()) if (t < a.cutOffUntil) coolingDown++;
    return { dropped: this.dropped, cutOffs: this.cutOffs, coolingDown, tracked: this.accounts.size };
  }

  close(): void {
    clearInterval(this.timer);
  }
}
