import { describe, expect, it } from "vitest";
import { DeviceBudget, type DeviceCutOff } from "./device-budget.ts";

const A = "02:00:00:00:00:0A";
const B = "02:00:00:00:00:0B";

function budget(o: Partial<ConstructorParameters<typeof DeviceBudget>[0]> = {}) {
  const clock = { t: 1_000_000 };
  const b = new DeviceBudget({ perSecond: 20, burst: 40, sweepEveryMs: 0, now: () => clock.t, ...o });
  const cutOffs: DeviceCutOff[] = [];
  b.onCutOff((c) => cutOffs.push(c));
  return { b, clock, cutOffs };
}

/** `n` messages from `mac` spread evenly over `ms`; answers how many were admitted. */
function send(b: DeviceBudget, clock: { t: number }, mac: string, n: number, ms: number): number {
  let admitted = 0;
  for (let i = 0; i < n; i++) {
    if (b.admit(mac)) admitted++;
    clock.t += ms / n;
  }
  return admitted;
}

describe("a device's message budget", () => {
  it("admits a burst at once, then the rate, and counts what it drops", () => {
    const { b, clock } = budget({ overLimitSeconds: 1000 });
    // 1 000 messages at the same instant: the burst passes.
    expect(send(b, clock, A, 1000, 0)).toBe(40);
    // 10 s of 1 000 messages a second: 20 a second pass.
    const admitted = send(b, clock, A, 10_000, 10_000);
    expect(admitted).toBeGreaterThanOrEqual(199);
    expect(admitted).toBeLessThanOrEqual(201);
    expect(b.stats().dropped).toBe(11_000 - 40 - admitted);
  });

  it("never drops a device that stays within its rate, and refills while it is quiet", () => {
    const { b, clock, cutOffs } = budget();
    expect(send(b, clock, A, 600, 60_000)).toBe(600); // 10 a second for a minute
    expect(send(b, clock, A, 40, 0)).toBe(40); // below the rate the bucket stays full
    clock.t += 2000;
    expect(send(b, clock, A, 100, 0)).toBe(40);
    expect(cutOffs).toEqual([]);
    expect(b.stats().dropped).toBe(60);
  });

  it("keeps each device's budget apart", () => {
    const { b, clock } = budget();
    send(b, clock, A, 5000, 1000);
    expect(send(b, clock, B, 40, 0)).toBe(40);
  });

  it("cuts off a device over budget for 10 s within a minute, tells once, refuses it for the cooldown, then takes it back", () => {
    const { b, clock, cutOffs } = budget();
    // 9 s over budget: not yet.
    send(b, clock, A, 9 * 1000, 9000);
    expect(cutOffs).toEqual([]);
    expect(b.isCutOff(A)).toBe(false);
    send(b, clock, A, 1000, 1000);
    expect(cutOffs).toHaveLength(1);
    expect(cutOffs[0]).toMatchObject({ mac: A, perSecond: 20, cooldownMs: 60_000, again: false });
    // Cut off at its first message dropped in its 10th second over budget: every message since the
    // start of the first such second counts.
    expect(cutOffs[0]!.messages).toBeGreaterThanOrEqual(8990);
    expect(cutOffs[0]!.messages).toBeLessThanOrEqual(9010);
    expect(cutOffs[0]!.seconds).toBe(10);
    expect(b.isCutOff(A)).toBe(true);
    // While cut off, nothing passes and nothing more is announced.
    expect(send(b, clock, A, 5000, 59_000)).toBe(0);
    expect(cutOffs).toHaveLength(1);
    expect(b.stats().coolingDown).toBe(1);
    clock.t += 1001;
    expect(b.isCutOff(A)).toBe(false);
    expect(send(b, clock, A, 40, 0)).toBe(40);
  });

  it("does not cut off a device over budget now and then (seconds spread over more than a minute)", () => {
    const { b, clock, cutOffs } = budget();
    for (let i = 0; i < 30; i++) {
      send(b, clock, A, 100, 1000); // one second over budget
      clock.t += 6000; // then quiet
    }
    expect(cutOffs).toEqual([]);
    expect(b.stats().dropped).toBeGreaterThan(0);
  });

  it("calls a cut-off soon after the previous cooldown the same episode", () => {
    const { b, clock, cutOffs } = budget({ overLimitSeconds: 2, cooldownMs: 5000, windowMs: 10_000 });
    send(b, clock, A, 2000, 2000);
    expect(cutOffs.map((c) => c.again)).toEqual([false]);
    clock.t += 5000;
    send(b, clock, A, 2000, 2000);
    expect(cutOffs.map((c) => c.again)).toEqual([false, true]);
    // Quiet for longer than a window after its cooldown: a new episode.
    clock.t += 5000 + 11_000;
    send(b, clock, A, 2000, 2000);
    expect(cutOffs.map((c) => c.again)).toEqual([false, true, false]);
  });

  it("forgets idle devices (memory stays bounded), but not one cut off", () => {
    const { b, clock } = budget({ overLimitSeconds: 1, cooldownMs: 300_000 });
    for (let i = 0; i < 1000; i++) b.admit(`04:00:00:00:${String(Math.floor(i / 256)).padStart(2, "0")}:${(i % 256).toString(16).padStart(2, "0").toUpperCase()}`);
    send(b, clock, A, 100, 0);
    expect(b.isCutOff(A)).toBe(true);
    expect(b.stats().tracked).toBe(1001);
    clock.t += 120_001;
    b.sweep();
    expect(b.stats().tracked).toBe(1);
    expect(b.isCutOff(A)).toBe(true);
    clock.t += 300_000;
    b.sweep();
    expect(b.stats().tracked).toBe(0);
  });
});
