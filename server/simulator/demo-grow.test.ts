import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchProgress, progressLabel, type Batch } from "../../src/contract/grow.ts";
import { createPasswordHasher } from "../auth/password.ts";
import { batchesRepo } from "../db/batches-repo.ts";
import type { Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { recipesRepo } from "../db/recipes-repo.ts";
import { STARTER_RECIPES } from "../grow/starter-recipes.ts";
import { openTestDatabase } from "../test-support/test-server.ts";
import { DEMO_LOGIN, ensureDemo } from "./demo.ts";

const NOW = new Date("2026-06-20T09:00:00Z");

describe("the demo's grow cycles", () => {
  let db: Database;
  let drop: () => Promise<void>;
  let clientId: number;
  let batches: Batch[];
  beforeAll(async () => {
    ({ db, drop } = await openTestDatabase());
    await migrate(db);
    await ensureDemo(db, createPasswordHasher({ log2N: 10 }), () => NOW);
    clientId = (await db.query<{ client_id: number }>("select client_id from clients where username = $1", [DEMO_LOGIN.username]))[0]!.client_id;
    batches = await batchesRepo(db).list(clientId);
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it("gives the demo client the starter recipes", async () => {
    const recipes = await recipesRepo(db).list(clientId);
    expect(recipes.map((r) => r.name)).toEqual(STARTER_RECIPES.map((r) => r.name));
    expect(recipes.find((r) => r.species === "Oyster")!.running_batches).toBe(2);
  });

  it("runs three batches at different points of their plans", () => {
    const at = (name: string) => {
      const b = batches.find((x) => x.name === name)!;
      return progressLabel(batchProgress(b, NOW.getTime()));
    };
    expect(batches.every((b) => b.status === "running" && b.mcu_ids.length === 1)).toBe(true);
    expect(at("Oyster straw, bags 1-60")).toBe("Spawn run · day 4 of 16");
    expect(at("Lion's mane, rack 1")).toBe("Pinning · day 3 · waiting: Pins visible");
    expect(at("Oyster columns, week 22")).toBe("Fruiting · day 3 of 6");
    const fruiting = batches.find((b) => b.name === "Oyster columns, week 22")!;
    expect(fruiting.events.map((e) => e.kind)).toEqual(["start", "advance", "confirm"]);
    expect(fruiting.harvests).toMatchObject([{ flush: 1, fresh_kg: expect.closeTo(14.2, 3) }]);
    expect(fruiting.substrate_dry_kg).toBe(60);
  });
});
