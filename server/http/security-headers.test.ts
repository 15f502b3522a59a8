import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../test-support/test-server.ts";

/** The directives of a CSP header, by name. */
function directives(header: unknown): Map<string, string[]> {
  return new Map(
    String(header)
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe("security headers on every response", () => {
  let server: TestServer;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "static-"));
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>Mushroom Farm</title>");
    mkdirSync(join(dir, "assets"));
    writeFileSync(join(dir, "assets", "app-abc123.js"), "export {};");
    server = await createTestServer({ config: { staticDir: dir } });
  });
  afterAll(() => server.close());

  it.each([
    ["index.html by name", "/index.html", 200],
    ["the router's fallback", "/dashboard", 200],
    ["a script", "/assets/app-abc123.js", 200],
    ["an API answer", "/api/clients/me", 401],
    ["an unknown endpoint", "/api/nothing", 404],
  ])("%s carries a strict CSP and the other headers", async (_what, url, status) => {
    const res = await server.app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(status);
    const csp = directives(res.headers["content-security-policy"]);
    expect(csp.get("script-src")).toEqual(["'self'"]);
    expect(csp.get("connect-src")).toContain("'self'");
    expect(csp.get("connect-src")).not.toContain("ws:");
    expect(csp.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    expect(csp.get("worker-src")).toEqual(["'self'", "blob:"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    for (const [name, values] of csp) expect(values, name).not.toContain("'unsafe-eval'");
    expect(csp.get("script-src")).not.toContain("'unsafe-inline'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["referrer-policy"]).toBe("same-origin");
    expect(res.headers["cross-origin-opener-policy"]).toBe("same-origin");
    expect(String(res.headers["permissions-policy"])).toContain("camera=(self)");
    expect(res.headers["strict-transport-security"]).toBeUndefined(); // plain HTTP here
  });
});
