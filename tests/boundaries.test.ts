import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? files(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))));
  return nested.flat().filter((f) => /\.(ts|tsx)$/.test(f));
}

describe("the data core boundary", () => {
  it("imports socket.io-client only under src/worker", async () => {
    const offenders: string[] = [];
    for (const file of await files("src")) {
      const rel = relative("src", file);
      if (rel.startsWith("worker/")) continue;
      if (/from\s+["']socket\.io-client["']|import\(\s*["']socket\.io-client["']\s*\)/.test(await readFile(file, "utf8"))) offenders.push(rel);
    }
    expect(offenders).toEqual([]);
  });

  it("lets the main thread import the worker's core only as a type (or lazily, as the in-thread fallback)", async () => {
    const offenders: string[] = [];
    for (const file of await files("src/ui")) {
      const text = await readFile(file, "utf8");
      for (const line of text.split("\n")) {
        if (/^import\s+(?!type\b).*from\s+["'][./]*worker\//.test(line)) offenders.push(`${relative("src", file)}: ${line.trim()}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
