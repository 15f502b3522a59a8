import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * Every SQL statement of the server lives in a repository: `server/db/` (migrations too) or a
 * `*-repo.ts` beside its domain. Routes, jobs, the gateway and the demo call repository functions,
 * so a statement is found, reviewed and changed in one place. Tests and their helpers may write
 * SQL of their own.
 */
const ALLOWED = [/^server\/db\//, /-repo\.ts$/, /\.test\.ts$/, /(^|\/)test-support\//];

/** What reads as a statement (of any case, across line breaks); English text in messages does not use these pairs. */
const SQL = /\b(select\s[\s\S]*\bfrom|insert\s+into|update\s+\w+(\s+\w+)?\s+set|delete\s+from|create\s+table|alter\s+table|drop\s+table)\b/i;

const KEYWORDS_BEFORE_EXPRESSION = new Set(["return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await"]);

/**
 * The texts of a file's string and template literals that read as SQL; comments and code are not
 * looked at. A template's substitutions read as `_`, so `update ${table} set` is still a statement.
 * Regular expression literals are skipped (a quote in one does not open a string): a `/` starts one
 * where an expression may start, as a JavaScript tokenizer decides.
 */
function sqlLiterals(text: string): string[] {
  const literals: string[] = [];
  /** The templates open around the current position: their text so far, and braces open in the current substitution. */
  const templates: { parts: string[]; depth: number }[] = [];
  let i = 0;
  let last = "";
  let word = "";

  /** Reads a template's text from `i` up to its end or its next substitution. */
  const templateText = () => {
    const template = templates[templates.length - 1]!;
    let part = "";
    while (i < text.length) {
      const c = text[i]!;
      if (c === "\\") {
        part += text.slice(i, i + 2);
        i += 2;
      } else if (c === "`") {
        i++;
        template.parts.push(part);
        literals.push(template.parts.join("_"));
        templates.pop();
        return;
      } else if (c === "$" && text[i + 1] === "{") {
        i += 2;
        template.parts.push(part);
        template.depth = 0;
        return;
      } else {
        part += c;
        i++;
      }
    }
  };

  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      let value = "";
      for (i++; i < text.length && text[i] !== c; i++) value += text[i] === "\\" ? text[i] + text[++i]! : text[i];
      i++;
      literals.push(value);
      last = c;
      word = "";
      continue;
    }
    if (c === "`" || (c === "}" && templates.length > 0 && templates[templates.length - 1]!.depth === 0)) {
      if (c === "`") templates.push({ parts: [], depth: 0 });
      i++;
      templateText();
      last = "`";
      word = "";
      continue;
    }
    if (c === "/" && (last === "" || !/[\w$)\]]/.test(last) || KEYWORDS_BEFORE_EXPRESSION.has(word))) {
      let inClass = false;
      for (i++; i < text.length && (inClass || text[i] !== "/") && text[i] !== "\n"; i++) {
        if (text[i] === "\\") i++;
        else if (text[i] === "[") inClass = true;
        else if (text[i] === "]") inClass = false;
      }
      i++;
      last = "/";
      word = "";
      continue;
    }
    if (templates.length > 0 && c === "{") templates[templates.length - 1]!.depth++;
    if (templates.length > 0 && c === "}") templates[templates.length - 1]!.depth--;
    if (/[\w$]/.test(c)) word = /[\w$]/.test(text[i - 1] ?? "") ? word + c : c;
    else if (!/\s/.test(c)) word = "";
    if (!/\s/.test(c)) last = c;
    i++;
  }
  return literals.filter((literal) => SQL.test(literal));
}

const ROOT = new URL("../", import.meta.url);

function serverFiles(): string[] {
  return readdirSync(new URL("server/", ROOT), { recursive: true, encoding: "utf8" })
    .map((p) => `server/${p.split("\\").join("/")}`)
    .filter((p) => p.endsWith(".ts"));
}

describe("where the server's SQL lives", () => {
  it("reads SQL in string and template literals, and not in comments or messages", () => {
    const text = [
      "// select a farm from the list, then delete from it",
      "/* DROP TABLE, not DELETE FROM: no dead rows */",
      'const a = "select mac, name from mcus where mac = $1";',
      "const b = `update ${table} set status = $2 where id = ${id}`;",
      "const c = fn(`drop table if exists ${p.name}`);",
      'const d = "Select a farm first";',
      "const e = `Delete ${n} MCUs from the farm?`;",
    ].join("\n");
    expect(sqlLiterals(text)).toEqual(["select mac, name from mcus where mac = $1", "update _ set status = $2 where id = _", "drop table if exists _"]);
  });

  it("keeps every statement in a repository, a migration or a test", () => {
    const files = serverFiles();
    // The walk must see the server: an empty list would pass whatever the rule.
    expect(files).toContain("server/db/farms-repo.ts");
    const outside = files
      .filter((f) => !ALLOWED.some((r) => r.test(f)))
      .flatMap((f) => sqlLiterals(readFileSync(new URL(f, ROOT), "utf8")).map((sql) => `${f}: ${sql.trim().split("\n")[0]}`));
    expect(outside).toEqual([]);
  });
});
