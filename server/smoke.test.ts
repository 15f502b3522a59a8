import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, seedClientData, type TestServer } from "./test-support/test-server.ts";

describe("test support", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it("seeds a client's farm, MCU, devices and profile link", async () => {
    const c = await server.signUp();
    const seeded = await seedClientData(c);
    const mcus = (await c.get(`/api/mcus/by-client/${c.clientId}`)).json();
    expect(mcus).toHaveLength(1);
    expect(mcus[0].controllers[0].unit_id).toBe(seeded.controller.unit_id);
    expect(mcus[0].profile_links[0].profile.name).toBe("Pinning");
  });
});
