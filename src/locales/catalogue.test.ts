import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES, type Language } from "../contract/language-values.ts";
import { UI_NAMESPACES } from "../ui/i18n/namespaces.ts";

/**
 * The catalogue of texts: every language has every text English has (in each plural form the
 * language needs), with the same placeholders, and every text is used by the code. English is the
 * reference because SPEC's texts are English.
 */
const ROOT = join(import.meta.dirname, "../..");
const LOCALES = join(ROOT, "src/locales");
const NAMESPACES = [...UI_NAMESPACES, "server"];
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function flatten(value: unknown, prefix = "", into: Map<string, string> = new Map()): Map<string, string> {
  if (typeof value === "string") into.set(prefix, value);
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, into);
  else into.set(prefix, String(value));
  return into;
}

const texts = (language: Language, namespace: string) => flatten(JSON.parse(readFileSync(join(LOCALES, language, `${namespace}.json`), "utf8")));

/** Keys by base: `apples_one`, `apples_other` are the forms of `apples`. */
function byBase(keys: Iterable<string>): Map<string, Set<string>> {
  const bases = new Map<string, Set<string>>();
  for (const key of keys) {
    const m = PLURAL_SUFFIX.exec(key);
    const base = m ? key.slice(0, m.index) : key;
    const forms = bases.get(base) ?? new Set<string>();
    if (m) forms.add(m[1]!);
    bases.set(base, forms);
  }
  return bases;
}

const placeholders = (text: string) => new Set([...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!).filter((n) => n !== "count"));

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (["locales", "node_modules", "test-support", "dist"].includes(name)) continue;
      sourceFiles(path, out);
    } else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

describe("the catalogue of texts", () => {
  for (const namespace of NAMESPACES) {
    const english = texts("en", namespace);
    const englishBases = byBase(english.keys());
    for (const language of LANGUAGES) {
      it(`has every ${namespace} text in ${language}, in each plural form ${language} needs`, () => {
        const own = texts(language, namespace);
        const bases = byBase(own.keys());
        expect([...bases.keys()].sort(), `${language}/${namespace}.json: keys differ from English`).toEqual([...englishBases.keys()].sort());
        const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
        for (const [base, forms] of bases) {
          if (englishBases.get(base)!.size === 0) {
            expect(forms.size, `${language}/${namespace}.json: ${base} is plural here but not in English`).toBe(0);
            continue;
          }
          expect([...forms].sort(), `${language}/${namespace}.json: plural forms of ${base}`).toEqual([...categories].sort());
        }
        for (const [key, text] of own) {
          expect(text.trim(), `${language}/${namespace}.json: ${key} is empty`).not.toBe("");
          const base = byBase([key]).keys().next().value!;
          const englishForms = [...english].filter(([k]) => byBase([k]).keys().next().value === base).map(([, t]) => t);
          const expected = new Set(englishForms.flatMap((t) => [...placeholders(t)]));
          expect([...placeholders(text)].sort(), `${language}/${namespace}.json: placeholders of ${key}`).toEqual([...expected].sort());
        }
      });
    }
  }

  it("has no text the code does not use", () => {
    const code = [...sourceFiles(join(ROOT, "src")), ...sourceFiles(join(ROOT, "server"))].map((f) => readFileSync(f, "utf8")).join("\n");
    // A key is used when the code names it whole, or builds it from a named prefix (`kinds.${kind}`).
    const prefixes = new Set([...code.matchAll(/[`"']((?:[\w-]+:)?[\w.-]+\.)\$\{/g)].map((m) => m[1]!.replace(/^[\w-]+:/, "")));
    const unused: string[] = [];
    for (const namespace of NAMESPACES) {
      for (const base of byBase(texts("en", namespace).keys()).keys()) {
        const named = code.includes(`"${base}"`) || code.includes(`'${base}'`) || code.includes(`\`${base}\``) || code.includes(`${namespace}:${base}"`) || code.includes(`${namespace}:${base}'`) || code.includes(`${namespace}:${base}\``);
        const built = [...prefixes].some((p) => base.startsWith(p));
        if (!named && !built) unused.push(`${namespace}:${base}`);
      }
    }
    expect(unused, "texts no code uses (remove them, or name the key whole where it is used)").toEqual([]);
  });
});
