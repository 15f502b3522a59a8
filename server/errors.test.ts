import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { AppError } from "./errors.ts";

const SERVER = new URL(".", import.meta.url).pathname;

function* productFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "test-support" && entry.name !== "node_modules") yield* productFiles(path);
    } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) yield path;
  }
}

/**
 * The arguments of the call whose "(" is at `open`, as written: split at the commas outside
 * brackets, strings and template literals (enough for how the server writes its errors).
 */
function callArguments(text: string, open: number): string[] {
  const args: string[] = [];
  const closers: string[] = [];
  let start = open + 1;
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === "\\") i++;
    } else if (c === "(" || c === "[" || c === "{") closers.push(c);
    else if (c === ")" && closers.length === 0) {
      if (text.slice(start, i).trim() !== "") args.push(text.slice(start, i).trim());
      return args;
    } else if (c === ")" || c === "]" || c === "}") closers.pop();
    else if (c === "," && closers.length === 0) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  return args;
}

/** `new AppError(…)` built without a reason (fewer than three arguments), as "file: message" (the message as written). */
function reasonless(file: string, text = readFileSync(file, "utf8")): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\bnew AppError\(/g)) {
    const args = callArguments(text, m.index + m[0].length - 1);
    if (args.length < 3) found.push(`${relative(SERVER, file)}: ${args[1] ?? "(no message)"}`);
  }
  return found;
}

describe("error answers name their reason", () => {
  it("every AppError of the server is built with a reason", () => {
    const found = [...productFiles(SERVER)].flatMap((f) => reasonless(f));
    expect(found, "build it with refusal(code, reason, message) (a new reason goes in src/contract/error-reasons.ts)").toEqual([]);
  });

  it("tells an AppError built without a reason from one built with it", () => {
    const file = join(SERVER, "http/routes/example.ts");
    const text = [
      'throw new AppError("VALIDATION", `limit must be from 1 to ${f(1, 2)}`);',
      'throw new AppError("VALIDATION", "a, b (c)", { reason: "out_of_range", params: { min: 1, max: 2 } });',
      'throw refusal("VALIDATION", "required", "x");',
    ].join("\n");
    expect(reasonless(file, text)).toEqual(["http/routes/example.ts: `limit must be from 1 to ${f(1, 2)}`"]);
    expect(new AppError("VALIDATION", "x", { reason: "required" }).reason).toBe("required");
  });
});
