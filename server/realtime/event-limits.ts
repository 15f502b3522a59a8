/** How often a socket may send an event: a burst, then so many a second. */
export interface Rate {
  burst: number;
  perSecond: number;
}

/**
 * Each socket's budget per event. authenticateUser reads the client's whole fleet from the
 * database, so it is scarce (an app sends it once per connection); a grower flicking switches
 * stays far inside the command budget.
 */
export const EVENT_RATES: Record<string, Rate> = {
  authenticateUser: { burst: 5, perSecond: 0.5 },
  sendCommand: { burst: 30, perSecond: 10 },
  refresh: { burst: 10, perSecond: 2 },
};
/** Any other event (none is handled; a flood of them still costs parsing). */
export const OTHER_EVENTS: Rate = { burst: 20, perSecond: 10 };
/** Dropped events within a minute after which the socket is disconnected. */
export const DISCONNECT_AFTER_DROPS = 100;

/** A token bucket; `take()` says whether one more event fits now. */
export function tokenBucket({ burst, perSecond }: Rate, now: () => number = Date.now) {
  let tokens = burst;
  let at = now();
  return {
    take(): boolean {
      const t = now();
      tokens = Math.min(burst, tokens + ((t - at) / 1000) * perSecond);
      at = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

/**
 * One socket's limits: `admit(event)` is true for an event within its budget. Dropped events
 * are counted; `flooding()` is true once a minute has seen DISCONNECT_AFTER_DROPS of them.
 */
export function socketLimits(now: () => number = Date.now) {
  const buckets = new Map<string, ReturnType<typeof tokenBucket>>();
  let drops: number[] = [];
  return {
    admit(event: string): boolean {
      const key = event in EVENT_RATES ? event : "*";
      let bucket = buckets.get(key);
      if (!bucket) buckets.set(key, (bucket = tokenBucket(EVENT_RATES[event] ?? OTHER_EVENTS, now)));
      if (bucket.take()) return true;
      const t = now();
      drops.push(t);
      if (drops.length > DISCONNECT_AFTER_DROPS) drops = drops.filter((d) => d > t - 60_000);
      return false;
    },
    flooding: () => drops.filter((d) => d > now() - 60_000).length >= DISCONNECT_AFTER_DROPS,
  };
}
