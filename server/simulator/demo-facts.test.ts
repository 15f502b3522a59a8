import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOW_BATTERY_BELOW } from "../../src/contract/conditions.ts";
import { createPasswordHasher } from "../auth/password.ts";
import type { Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { openTestDatabase } from "../test-support/test-server.ts";
import { DEMO_LOGIN, ensureDemo } from "./demo.ts";

/**
 * The README's facts about the demo, each a row `| what | number … |` of the table between
 * `<!-- demo-facts -->` and `<!-- /demo-facts -->`: checked here against the demo the seed makes,
 * so that the README cannot drift from it again. DEMO_FACTS_README=<file> checks a draft instead.
 */
const README = process.env.DEMO_FACTS_README ?? new URL("../../README.md", import.meta.url);

function readmeFacts(): Map<string, string> | undefined {
  const text = readFileSync(README, "utf8");
  const block = /<!-- demo-facts -->([\s\S]*?)<!-- \/demo-facts -->/.exec(text)?.[1];
  if (block === undefined) return undefined;
  const rows = block
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("|") && !/^\|\s*-/.test(line))
    .map((line) => line.split("|").slice(1, -1).map((cell) => cell.trim()));
  // The first row is the table's header.
  return new Map(rows.slice(1).map(([what, value]) => [what!, value!]));
}

const facts = readmeFacts();

interface DemoCounts {
  farms: number;
  mcus: number;
  profiles: number;
  linked: number;
  lowBattery: { name: string; battery: number }[];
  unclaimedMcus: number;
  unclaimedControllers: number;
  unclaimedSensors: number;
}

/** What each row of the README's table says, and how the demo's data answers it. */
const FACT_OF: Record<string, (d: DemoCounts) => number> = {
  farms: (d) => d.farms,
  "MCUs in its farms": (d) => d.mcus,
  "setting profiles": (d) => d.profiles,
  "MCUs with a profile linked": (d) => d.linked,
  "MCUs low on battery at start": (d) => d.lowBattery.length,
  "unclaimed MCU labels (simulated: they report once added)": (d) => d.unclaimedMcus,
  "unclaimed controllers": (d) => d.unclaimedControllers,
  "unclaimed sensors": (d) => d.unclaimedSensors,
};

if (!facts) {
  it.skip("README.md has no <!-- demo-facts --> … <!-- /demo-facts --> table yet: its demo facts are not checked", () => {});
} else {
  describe("the README's facts about the demo", () => {
    let db: Database;
    let drop: () => Promise<void>;
    let demo: DemoCounts;

    beforeAll(async () => {
      ({ db, drop } = await openTestDatabase());
      await migrate(db);
      await ensureDemo(db, createPasswordHasher({ log2N: 10 }));
      const [client] = await db.query<{ client_id: number }>("select client_id from clients where username = $1", [DEMO_LOGIN.username]);
      const id = client!.client_id;
      const count = async (sql: string, params: unknown[] = []) => (await db.query<{ n: number }>(sql, params))[0]!.n;
      demo = {
        farms: await count("select count(*)::int as n from farms where client_id = $1", [id]),
        mcus: await count("select count(*)::int as n from mcus where client_id = $1", [id]),
        profiles: await count("select count(*)::int as n from setting_profiles where client_id = $1", [id]),
        linked: await count("select count(*)::int as n from profile_links l join mcus m on m.mcu_id = l.mcu_id where m.client_id = $1", [id]),
        lowBattery: await db.query<{ name: string; battery: number }>(
          "select m.name, s.battery from simulator_devices s join mcus m on m.mac = s.mac where m.client_id = $1 and s.battery < $2 order by m.mcu_id",
          [id, LOW_BATTERY_BELOW],
        ),
        unclaimedMcus: await count("select count(*)::int as n from simulator_devices s where not exists (select 1 from mcus m where m.mac = s.mac)"),
        unclaimedControllers: await count("select count(*)::int as n from device_inventory where kind = 'controller' and claimed_by is null"),
        unclaimedSensors: await count("select count(*)::int as n from device_inventory where kind = 'sensor' and claimed_by is null"),
      };
    });
    afterAll(async () => {
      await db?.close();
      await drop?.();
    });

    it("states only facts this test knows how to check", () => {
      expect([...facts.keys()].filter((what) => !(what in FACT_OF))).toEqual([]);
    });

    it("gives each fact as the demo has it", () => {
      const stated = Object.fromEntries([...facts].filter(([what]) => what in FACT_OF).map(([what, value]) => [what, Number(/^\d+/.exec(value)?.[0])]));
      const actual = Object.fromEntries(Object.keys(stated).map((what) => [what, FACT_OF[what]!(demo)]));
      expect(stated).toEqual(actual);
    });

    it("names each MCU low on battery at start with its level", () => {
      const row = facts.get("MCUs low on battery at start");
      if (row === undefined) return;
      for (const { name, battery } of demo.lowBattery) expect(row).toContain(`${name}, ${Math.round(battery)} %`);
    });
  });
}
