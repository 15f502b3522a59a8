import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLAIM_REFUSED } from "../../src/contract/claim-code.ts";
import { createTestServer, type TestServer } from "../test-support/test-server.ts";

describe("concurrent MCU claims against the refusal limit (10 per account and address)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server?.close());

  it("lets at most 10 of 250 concurrent wrong guesses from a new account and address reach the inventory; the rest are 429", async () => {
    const guesser = await server.signUp();
    const farm = (await guesser.post("/api/farms", { name: "Guess farm", location: "Loopback", client_id: guesser.clientId })).json();
    const target = await guesser.mcuDevice();
    // A busy database: the inventory is held while the guesses come in, so that each waits there
    // for as long as a real one may (a claim is checked against the limit before it gets there).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holding = server.db.transaction(async (tx) => {
      await tx.query("lock table device_inventory in access exclusive mode");
      locked();
      await held;
    });
    await Promise.race([lockTaken, holding]);
    const sent = Promise.all(
      Array.from({ length: 250 }, (_, i) =>
        server.app.inject({
          method: "POST",
          url: "/api/mcus",
          remoteAddress: "198.51.100.9",
          headers: { cookie: guesser.cookie, "content-type": "application/json" },
          payload: JSON.stringify({ name: "Guess", mac: target.mac, claim_code: `7K2M-9QXD-${String(i).padStart(4, "0")}`, farm_id: farm.farm_id, status: "active" }),
        }),
      ),
    );
    // Every guess is under way (its request read, its session looked up or waiting on the database) before the inventory is let go.
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await holding;
    const guesses = await sent;
    const refused = guesses.filter((r) => r.statusCode === 400 && r.json().message === CLAIM_REFUSED).length;
    const limited = guesses.filter((r) => r.statusCode === 429).length;
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThanOrEqual(10);
    expect(refused + limited).toBe(250);

    // Another account elsewhere claims that very MCU with its label's code meanwhile.
    const owner = await server.signUp();
    const ownFarm = (await owner.post("/api/farms", { name: "Own farm", location: "Byblos", client_id: owner.clientId })).json();
    expect((await owner.post("/api/mcus", { name: "Mine", ...target, farm_id: ownFarm.farm_id, status: "active" })).statusCode).toBe(201);
  });

  it("never refuses an installer adding 30 MCUs with their right codes, one after another or all at once", async () => {
    const installer = await server.signUp();
    const farm = (await installer.post("/api/farms", { name: "Fleet", location: "Loopback", client_id: installer.clientId })).json();
    for (let i = 0; i < 30; i++) expect((await installer.post("/api/mcus", { name: `Bay ${i}`, ...(await installer.mcuDevice()), farm_id: farm.farm_id, status: "active" })).statusCode).toBe(201);
    const devices = await Promise.all(Array.from({ length: 30 }, () => installer.mcuDevice()));
    const added = await Promise.all(devices.map((d, i) => installer.post("/api/mcus", { name: `Row ${i}`, ...d, farm_id: farm.farm_id, status: "active" })));
    expect(added.map((r) => r.statusCode)).toEqual(Array(30).fill(201));
  });
});
