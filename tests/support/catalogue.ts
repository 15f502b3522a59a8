import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const LOCALES = join(import.meta.dirname, "../../src/locales");

function strings(value: unknown, into: string[] = []): string[] {
  if (typeof value === "string") into.push(value);
  else if (value && typeof value === "object") for (const v of Object.values(value)) strings(v, into);
  return into;
}

/**
 * The app's English sentences (catalogue texts of three words or more, without placeholders or
 * markup): on a screen in another language, finding one of them means a text was left in English.
 */
export function englishSentences(): string[] {
  const dir = join(LOCALES, "en");
  const all = readdirSync(dir)
    .filter((f) => f.endsWith(".json") && f !== "server.json")
    .flatMap((f) => strings(JSON.parse(readFileSync(join(dir, f), "utf8"))));
  return [...new Set(all.filter((t) => !/[{<]/.test(t) && t.trim().split(/\s+/).length >= 3))];
}

/** A text of the catalogue, by language, namespace and dotted key. */
export function catalogueText(language: string, namespace: string, key: string): string {
  let at: unknown = JSON.parse(readFileSync(join(LOCALES, language, `${namespace}.json`), "utf8"));
  for (const part of key.split(".")) at = (at as Record<string, unknown>)[part];
  if (typeof at !== "string") throw new Error(`no text ${language}/${namespace}:${key}`);
  return at;
}
