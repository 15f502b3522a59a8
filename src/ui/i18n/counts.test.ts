import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LANGUAGES, type Digits } from "../../contract/language-values.ts";
import { startTexts } from "../../test-support/i18n.ts";
import { numberFormat } from "./format.ts";
import { i18n } from "./i18n.ts";
import { UI_NAMESPACES } from "./namespaces.ts";

/**
 * A count in a plural text is written by the text itself, `{{count, number}}`, through the app's
 * number formatter (the person's digits, grouped); the code passes the plain `{ count }`. A bare
 * `{{count}}` would print 1234 in Western digits whatever the person chose.
 */
const ROOT = join(import.meta.dirname, "../../..");
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/**
 * Written without grouping: a profile's hours and liters are setting values, written as the form
 * holds them (every decimal), like the card's other values; the wall's counts fit a tile's line
 * seen from across a room ("2000 MCUs"); an MCU card's short counts ("400d ago", sensors not
 * registered) as the card's other counts.
 */
const UNGROUPED = (key: string) =>
  key === "profiles:card.hours" || key === "profiles:card.liters" || key.startsWith("wall:") || key === "dashboard:card.unregistered" || key.startsWith("mcu:lastSeen.");

function flatten(value: unknown, prefix = "", into: Map<string, string> = new Map()): Map<string, string> {
  if (typeof value === "string") into.set(prefix, value);
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, into);
  return into;
}

/** `ns:key` of each English plural text that shows its count, with the text's other placeholders. */
function countedTexts(): { key: string; others: string[] }[] {
  const found = new Map<string, Set<string>>();
  for (const namespace of UI_NAMESPACES) {
    const english = flatten(JSON.parse(readFileSync(join(ROOT, "src/locales/en", `${namespace}.json`), "utf8")));
    for (const [key, text] of english) {
      const m = PLURAL_SUFFIX.exec(key);
      if (!m || !/\{\{\s*count\b/.test(text)) continue;
      const base = `${namespace}:${key.slice(0, m.index)}`;
      const others = found.get(base) ?? new Set<string>();
      for (const p of text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)) if (p[1] !== "count") others.add(p[1]!);
      found.set(base, others);
    }
  }
  return [...found].map(([key, others]) => ({ key, others: [...others] }));
}

function productFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "test-support") productFiles(path, out);
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

describe("counts in the texts", () => {
  afterAll(() => startTexts());
  const texts = countedTexts();

  it("finds the plural texts that show a count", () => {
    expect(texts.map((t) => t.key)).toEqual(
      expect.arrayContaining(["common:layout.openAlarms", "common:savedAge.days", "controllers:page.count", "batches:card.flushes", "wall:counts.mcus", "alarms:page.activeCount", "mcu:lastSeen.days"]),
    );
  });

  it("has no plural text that shows its number through a placeholder of its own ({{n}}) beside the count", () => {
    const beside: string[] = [];
    for (const language of LANGUAGES) {
      for (const namespace of UI_NAMESPACES) {
        const texts = flatten(JSON.parse(readFileSync(join(ROOT, `src/locales/${language}`, `${namespace}.json`), "utf8")));
        for (const [key, text] of texts) if (PLURAL_SUFFIX.test(key) && /\{\{\s*n\s*\}\}/.test(text)) beside.push(`${language}/${namespace}:${key}`);
      }
    }
    expect(beside).toEqual([]);
  });

  for (const language of LANGUAGES) {
    for (const digits of ["latn", "arab"] satisfies Digits[]) {
      it(`writes 1234 in every ${language} count in ${digits} digits, grouped as the app groups numbers`, async () => {
        await startTexts({ language, digits });
        const grouped = numberFormat().format(1234);
        const ungrouped = numberFormat({ useGrouping: false }).format(1234);
        const wrong: string[] = [];
        for (const { key, others } of texts) {
          const text = String(i18n.t(key as never, { count: 1234, ...Object.fromEntries(others.map((o) => [o, "·"])) } as never));
          if (!text.includes(UNGROUPED(key) ? ungrouped : grouped)) wrong.push(`${key}: ${text}`);
        }
        expect(wrong).toEqual([]);
      });
    }
  }

  it("says English counts as SPEC does", async () => {
    await startTexts();
    expect(i18n.t("common:layout.openAlarms", { count: 1234 })).toBe("1,234 open alarms");
    expect(i18n.t("controllers:page.count", { count: 1 })).toBe("1 controller");
    expect(i18n.t("profiles:card.liters", { count: 1500.5 })).toBe("1500.5 liters");
  });

  it("are passed as the plain count by the code, for the text to write", () => {
    const written = productFiles(join(ROOT, "src/ui")).filter((path) => {
      const code = readFileSync(path, "utf8");
      // A count written by the code (`replace: { count: … }`) or a locale handed to i18next bypasses the text's own `{{count, number}}`.
      return /replace:\s*\{[^}]*\bcount\b/.test(code) || /\blocale:\s*currentLocale\(\)/.test(code);
    });
    expect(written).toEqual([]);
  });
});
