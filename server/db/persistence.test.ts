import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "./migrate.ts";
import { createTestServer, dropSchema, onPostgres, openTestDatabase, requester, seedClientData } from "../test-support/test-server.ts";

// Two PGlite opens with every migration: slow on a loaded machine, so more than the project's 20 s.
describe("persistence", { timeout: 60_000 }, () => {
  const dir = mkdtemp(join(tmpdir(), "mf-data-"));
  const schema = `persist_${process.pid}_${randomBytes(3).toString("hex")}`;
  afterAll(async () => {
    await rm(await dir, { recursive: true, force: true });
    await dropSchema(schema);
  });

  it("keeps clients, sessions and farm data across a server restart", async () => {
    const where = onPostgres ? { schema } : { dataDir: await dir };
    const first = await createTestServer(where);
    const c = await first.signUp();
    const seeded = await seedClientData(c);
    const before = (await c.get(`/api/mcus/by-client/${c.clientId}`)).json();
    await first.close();

    const second = await createTestServer({ ...where, startAt: first.clock.now + 60_000 });
    try {
      const again = requester(second.app, c.cookie);
      expect((await again.get("/api/clients/me")).json().client_id).toBe(c.clientId);
      expect((await again.get(`/api/mcus/by-client/${c.clientId}`)).json()).toEqual(before);
      const farms = (await again.get(`/api/farms/myfarms/get?client_id=${c.clientId}`)).json();
      expect(farms.map((f: { farm_id: number }) => f.farm_id)).toEqual([seeded.farm.farm_id]);
      const login = await second.app.inject({
        method: "POST",
        url: "/api/clients/login",
        payload: { username: c.registration.username, password: c.registration.password },
      });
      expect(login.statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });

  it("applies each migration once", async () => {
    const { db, drop } = await openTestDatabase();
    try {
      const firstRun = await migrate(db);
      expect(firstRun[0]).toBe("001_initial.sql");
      expect(await migrate(db)).toEqual([]);
    } finally {
      await db.close();
      await drop();
    }
  });
});
