import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPasswordHasher } from "../auth/password.ts";
import type { Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { openTestDatabase } from "../test-support/test-server.ts";
import { ENGLISH, writeBoth, type TitleAndBody } from "../texts.ts";
import { ensureDemo } from "./demo.ts";
import { seedDemoHistory } from "./history-seed.ts";
import type { FleetDevice } from "./simulated-mcu.ts";

const NOW = new Date("2026-06-10T09:30:27Z");
const DAY_START = Date.parse("2026-06-09T09:30:00Z");

describe("the demo's day of history", () => {
  let db: Database;
  let drop: () => Promise<void>;
  let devices: FleetDevice[];
  let ids: { mcu_id: number; name: string; mac: string }[];

  beforeAll(async () => {
    ({ db, drop } = await openTestDatabase());
    await migrate(db);
    ({ devices } = await ensureDemo(db, createPasswordHasher({ log2N: 10 }), () => NOW));
    ids = await db.query("select mcu_id, name, mac from mcus order by mcu_id");
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  const perMcu = <T>(sql: string) => db.query<T & { mcu_id: number }>(sql);

  it("gives every demo MCU the 24 h before now: a row per minute, the hours built from them, state changes and commands", async () => {
    const seed = await seedDemoHistory(db, devices, { now: NOW });
    expect(seed.seeded).toBe(true);
    const written = await seed.written;
    expect(written.mcus).toBe(12);
    expect(written.minuteRows).toBe(12 * 1440);
    expect(written.alarms).toBeGreaterThanOrEqual(3);

    const minutes = await perMcu<{ n: number; first: Date; last: Date; samples: number }>(
      "select mcu_id, count(*)::int as n, min(bucket) as first, max(bucket) as last, min(temperature_n)::int as samples from reading_minutes group by mcu_id order by mcu_id",
    );
    expect(minutes.map((m) => m.mcu_id)).toEqual(ids.map((m) => m.mcu_id));
    for (const m of minutes) {
      expect(m.n).toBe(1440);
      expect(new Date(m.first).getTime()).toBe(DAY_START);
      expect(new Date(m.last).getTime()).toBe(Date.parse("2026-06-10T09:29:00Z"));
      expect(m.samples).toBe(6); // one every 10 s
    }
    const hours = await perMcu<{ n: number; samples: number }>("select mcu_id, count(*)::int as n, sum(temperature_n)::int as samples from reading_hours group by mcu_id");
    for (const h of hours) expect(h).toMatchObject({ n: 25, samples: 1440 * 6 });
    expect(seed.rooms.size).toBe(12);
    expect([...seed.rooms.keys()].sort()).toEqual(ids.map((m) => m.mac).sort());
  });

  it("follows the physics: batteries drain to today's level, the automation keeps the profile's bands, CO2 climbs while the fan is off", async () => {
    const battery = await perMcu<{ first: number; last: number }>(
      `select mcu_id,
         (select battery_avg from reading_minutes r where r.mcu_id = m.mcu_id order by bucket limit 1) as first,
         (select battery_avg from reading_minutes r where r.mcu_id = m.mcu_id order by bucket desc limit 1) as last
       from mcus m order by mcu_id`,
    );
    const stored = await db.query<{ mac: string; battery: number }>("select mac, battery from simulator_devices");
    const dayOfDrain = 0.0004 * 86_400; // the physics' drain over a day, in %
    for (const [i, b] of battery.entries()) {
      // Today's level, or where a full battery is after a day's drain when today's is higher.
      const end = Math.min(stored.find((s) => s.mac === ids[i]!.mac)!.battery, 100 - dayOfDrain);
      expect(b.first - b.last).toBeGreaterThan(dayOfDrain - 2);
      expect(b.last).toBeGreaterThan(end - 2);
      expect(b.last).toBeLessThan(end + 2);
    }

    // Oyster Room A runs "Oyster fruiting": humidity 85-93 %, CO2 under 800 ppm, 18 °C.
    const [roomA] = await db.query<{ h_min: number; h_max: number; co2: number; t: number; t_min: number; t_max: number }>(
      `select min(humidity_avg) as h_min, max(humidity_avg) as h_max, avg(co2_avg) as co2, avg(temperature_avg) as t, min(temperature_min) as t_min, max(temperature_max) as t_max
       from reading_minutes where mcu_id = $1 and bucket >= $2`,
      [ids[0]!.mcu_id, new Date(DAY_START + 3600_000).toISOString()],
    );
    expect(roomA!.h_min).toBeGreaterThan(82);
    expect(roomA!.h_max).toBeLessThan(96);
    expect(roomA!.co2).toBeLessThan(900);
    expect(roomA!.t).toBeGreaterThan(17);
    expect(roomA!.t).toBeLessThan(19);
    expect(roomA!.t_max - roomA!.t_min).toBeGreaterThan(0.5); // the AC's cycles, not a constant

    // Oyster Room B (every fourth room from the second): the fan was off 04:00-04:40 UTC by hand.
    const co2 = await db.query<{ at: Date; co2: number }>(
      "select bucket as at, co2_avg as co2 from reading_minutes where mcu_id = $1 and bucket between $2 and $3 order by bucket",
      [ids[1]!.mcu_id, "2026-06-10T03:50:00Z", "2026-06-10T04:39:00Z"],
    );
    const before = co2.filter((c) => new Date(c.at) < new Date("2026-06-10T04:00:00Z")).map((c) => c.co2);
    const during = co2.filter((c) => new Date(c.at) >= new Date("2026-06-10T04:00:00Z")).map((c) => c.co2);
    expect(Math.max(...before)).toBeLessThan(900);
    for (let i = 1; i < during.length; i++) expect(during[i]!).toBeGreaterThan(during[i - 1]!);
    // The room breathes about 12 ppm a minute: after 40 minutes without the fan, far over the profile's 800 ppm threshold.
    expect(during.at(-1)!).toBeGreaterThan(1100);
    const commands = await db.query<{ source: string; type: string; on_off: boolean; actor: string | null; outcome: string }>(
      "select source, type, on_off, actor, outcome from command_log where mcu_id = $1 and source = 'user' order by at",
      [ids[1]!.mcu_id],
    );
    expect(commands).toEqual([
      { source: "user", type: "auto", on_off: false, actor: "demo", outcome: "acknowledged" },
      { source: "user", type: "status", on_off: false, actor: "demo", outcome: "acknowledged" },
      { source: "user", type: "auto", on_off: true, actor: "demo", outcome: "acknowledged" },
    ]);
  });

  it("lists the day's alarms as the live engine would have opened them: the fan-off rooms' CO2, acknowledged by the grower, resolved once the fan ran again", async () => {
    const alarms = await db.query<{
      mcu_id: number;
      type: string;
      state: string;
      raised_at: Date;
      resolved_at: Date;
      acknowledged_by: string | null;
      ack_comment: string | null;
      title: string;
      body: string;
      announced: boolean;
      words: TitleAndBody | null;
    }>("select mcu_id, type, state, raised_at, resolved_at, acknowledged_by, ack_comment, title, body, announced, words from alerts where resolved_at is not null order by mcu_id, raised_at");
    // Each with its words, as the live engine keeps them, which say its title and body in English (and each reader's language in the app).
    for (const a of alarms) expect(a.words && writeBoth(a.words, ENGLISH)).toEqual({ title: a.title, body: a.body });
    const co2 = alarms.filter((a) => a.type === "co2_high");
    // Every fourth room from the second had its fan off; the ones with a linked profile (all three) have limits to leave.
    expect(co2.map((a) => a.mcu_id)).toEqual([ids[1]!.mcu_id, ids[5]!.mcu_id, ids[9]!.mcu_id]);
    for (const a of co2) {
      expect(a.state).toBe("resolved");
      expect(a.announced).toBe(false);
      expect(a.acknowledged_by).toBe("demo");
      expect(a.ack_comment).toContain("Exhaust fan off by hand");
      expect(a.title).toMatch(/: CO2 high$/);
      const opened = new Date(a.raised_at).toISOString();
      // The fan went off at 04:00: CO2 crossed the band, and the grace period went by, within the 40 minutes.
      expect(opened > "2026-06-10T04:05:00" && opened < "2026-06-10T04:40:00", opened).toBe(true);
      expect(new Date(a.resolved_at).getTime()).toBeGreaterThan(Date.parse("2026-06-10T04:40:00Z"));
    }
    // Any other is a room the physics took out of its profile (a soil-based AC lags its soil): opened, lasted, resolved, nobody's comment.
    for (const a of alarms.filter((a) => a.type !== "co2_high")) {
      expect(a.announced).toBe(false);
      expect(a.acknowledged_by).toBeNull();
      expect(new Date(a.resolved_at).getTime() - new Date(a.raised_at).getTime()).toBeGreaterThanOrEqual(2 * 60_000);
      expect(a.title.startsWith(ids.find((m) => m.mcu_id === a.mcu_id)!.name)).toBe(true);
    }
  });

  it("keeps the words of the demo's open low-battery alarm, which say its title and body as its notification does", async () => {
    const [open] = await db.query<{ title: string; body: string; words: TitleAndBody | null; note_title: string; note_body: string }>(
      "select a.title, a.body, a.words, n.title as note_title, n.body as note_body from alerts a join notifications n on n.notification_id = a.notification_id where a.state = 'open' and a.type = 'battery_low'",
    );
    expect(open).toMatchObject({ title: "Packing Cooler: battery low", body: "Battery at 24%. Replace or charge it soon.", note_title: "Packing Cooler: battery low" });
    expect(writeBoth(open!.words!, ENGLISH)).toEqual({ title: open!.title, body: open!.body });
  });

  it("keeps state changes and the automation's switching consistent: each change differs from the one before", async () => {
    const events = await db.query<{ mcu_id: number; target: string; status: boolean; auto: boolean; at: Date }>(
      "select mcu_id, target, status, auto, at from device_state_events order by mcu_id, target, at",
    );
    expect(events.length).toBeGreaterThan(12 * 4);
    let automationChanges = 0;
    for (let i = 1; i < events.length; i++) {
      const [a, b] = [events[i - 1]!, events[i]!];
      if (a.mcu_id !== b.mcu_id || a.target !== b.target) continue;
      expect([a.status, a.auto]).not.toEqual([b.status, b.auto]);
      if (b.auto && a.status !== b.status) automationChanges++;
    }
    const [logged] = await db.query<{ n: number }>("select count(*)::int as n from command_log where source = 'automation' and outcome = 'reported' and actor is null");
    expect(logged!.n).toBe(automationChanges);
    // Irrigation's session follows its status.
    const [irrigation] = await db.query<{ n: number }>("select count(*)::int as n from device_state_events where target = 'Irrigation' and session is distinct from status");
    expect(irrigation!.n).toBe(0);
  });

  it("does nothing while the demo has history within the day, and seeds again after a day without", async () => {
    const again = await seedDemoHistory(db, devices, { now: new Date(NOW.getTime() + 3600_000) });
    expect(again.seeded).toBe(false);
    expect((await again.written).minuteRows).toBe(0);
    const later = await seedDemoHistory(db, devices, { now: new Date(NOW.getTime() + 3 * 86_400_000) });
    expect(later.seeded).toBe(true);
    // Meanwhile the fleet, started from the day's last rooms, reports: the server stores each
    // controller's first state as a change. One that repeats the day's last state goes once the day is in.
    const end = Date.parse("2026-06-13T09:30:00Z");
    const { mcu_id, mac } = ids[0]!;
    const last = later.rooms.get(mac)!.actuators;
    const live = (target: string, status: boolean, auto: boolean, ms: number) =>
      db.query("insert into device_state_events (mcu_id, at, target, status, auto) values ($1, $2, $3, $4, $5)", [mcu_id, new Date(end + ms).toISOString(), target, status, auto]);
    await live("AC", last.AC.status, last.AC.auto, 1000);
    await live("Humidifier", !last.Humidifier.status, last.Humidifier.auto, 1000);
    expect((await later.written).minuteRows).toBe(12 * 1440);
    const after = await db.query<{ target: string; status: boolean }>("select target, status from device_state_events where mcu_id = $1 and at >= $2", [mcu_id, new Date(end).toISOString()]);
    expect(after).toEqual([{ target: "Humidifier", status: !last.Humidifier.status }]);
  });
});
