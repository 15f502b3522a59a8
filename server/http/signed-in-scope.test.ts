import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routesOf } from "../test-support/route-table.ts";
import { createTestServer, type TestServer } from "../test-support/test-server.ts";

/**
 * Every route of the API is public or sits in the signed-in scope. The list is read from the
 * server itself (Fastify's route table), so a route added later is checked too: one that answers
 * anything but 401 without a session must be in PUBLIC below, on purpose.
 */
const PUBLIC = new Set([
  "POST /api/clients",
  "POST /api/clients/login",
  "POST /api/clients/logout",
  "GET /api/metrics",
  // A service worker's report that it displayed a push: its message id is the proof (PUSH_PATHS.displayed).
  "POST /api/push/displayed",
]);


describe("the signed-in scope", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => server?.close());

  it("answers 401 before any handler on every API route but the public ones", async () => {
    const routes = routesOf(server.app.printRoutes({ commonPrefix: false })).filter((r) => /^\S+ \/(api|notifications)\//.test(r));
    // The table is read: the API has dozens of routes (a parse that found none would pass anything).
    expect(routes.length).toBeGreaterThan(40);
    expect(routes).toEqual(expect.arrayContaining(["GET /api/recipes", "POST /api/batches/:batch_id/actions", "GET /api/farms/myfarms/get"]));
    const answers: string[] = [];
    for (const route of routes) {
      if (PUBLIC.has(route)) continue;
      const [method, pattern] = route.split(" ") as [string, string];
      // Two routes of one shape share a node (":clientId|:profile_id"): any value stands for either.
      const url = pattern.replace(/:[A-Za-z_]+(\|:[A-Za-z_]+)*/g, "1");
      const res = await server.app.inject({ method: method as "GET", url, headers: { "content-type": "application/json" }, payload: method === "GET" || method === "DELETE" ? undefined : "{}" });
      if (res.statusCode !== 401) answers.push(`${route} → ${res.statusCode}`);
    }
    expect(answers).toEqual([]);
  });
});
