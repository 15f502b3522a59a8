import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The app's markup in any language and direction: no English written into the markup (it comes
 * from the catalogue), and no physical left/right style where a logical one (start/end) exists, so
 * that Arabic mirrors the layout.
 */
const UI = join(import.meta.dirname, "../ui");


function files(dir: string, pattern: RegExp, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, pattern, out);
    else if (pattern.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

const lineOf = (source: string, index: number) => source.slice(0, index).split("\n").length;

/** Words between tags (`<p>Save</p>`), and words in attributes people read or hear. */
const WRITTEN_TEXT = [/>\s*([^<>{}\n]*[A-Za-z]{2,}[^<>{}\n]*?)\s*</g, /\b(?:aria-label|title|placeholder|alt|label|aria-description|aria-roledescription)="([^"]*[A-Za-z]{2,}[^"]*)"/g];
/**
 * Code between a type's angle brackets (`Promise<void>`, `(x): Map<`, `(t: T<"a">, b: Map<`) that
 * the first pattern also meets, and the next key between two elements of an object
 * (`<Trans components={{ a: <b />, c: <d /> }}>`), and the condition of a ternary whose branch is an
 * element, after an arrow (`(name) =>` then `errors[name] ? (` then `<p>`).
 * A MAC address written as an example of its format (`AA:BB:CC:DD:EE:FF`) reads the same in every language.
 */
const NOT_TEXT = /[;=|]|=>|\bPromise\b|^\s*\)|\bnew\b|^[\s\d.,:;%°/+\-–×()]*$|^,\s*\w+\??:(\s*\w+)?$|^(?:[0-9A-F]{2}:){5}[0-9A-F]{2}$|^\S+ \? \($/;
/** Toasts and failure texts written in code. */
const WRITTEN_MESSAGE = /\b(?:notify\.\w+\(|toast(?:\.\w+)?\(|messageOf\([^,()]+,)\s*["'`]([^"'`]*[A-Za-z]{2,}[^"'`]*)["'`]/g;

/**
 * UnoCSS utilities tied to a physical side, each with a logical one (ms/me, ps/pe, start/end, border-s/e, rounded-s/e, text-start/end, gap for space-x).
 * `left`, `right`, `ml`… are utilities only with a value (`left-0`): alone they are words (an access right, a record that left).
 */
const PHYSICAL_UTILITY = /(?<=["'`\s:])-?(?:(?:m[lr]|p[lr]|left|right|space-x)-[\w./[\]%]+|(?:border-[lr]|rounded-(?:[lr]|[tb][lr])|text-(?:left|right)|float-(?:left|right))(?:-[\w./[\]%]+)?)(?=["'`\s])/g;
const PHYSICAL_CSS = /\b(?:(?:margin|padding|border)-(?:left|right)|(?<![-\w])(?:left|right)\s*:|text-align\s*:\s*(?:left|right)|float\s*:\s*(?:left|right))/g;

describe("the app's markup", () => {
  const tsx = files(UI, /\.tsx$/);
  const code = files(UI, /\.tsx?$/);
  const css = files(UI, /\.css$/);

  it("writes no English of its own: every text a person reads or hears comes from the catalogue", () => {
    const found: string[] = [];
    for (const path of tsx) {
      const source = readFileSync(path, "utf8");
      for (const pattern of WRITTEN_TEXT)
        for (const m of source.matchAll(pattern)) if (!NOT_TEXT.test(m[1]!)) found.push(`${relative(UI, path)}:${lineOf(source, m.index)}: ${m[1]!.trim()}`);
    }
    for (const path of code) {
      const source = readFileSync(path, "utf8");
      for (const m of source.matchAll(WRITTEN_MESSAGE)) found.push(`${relative(UI, path)}:${lineOf(source, m.index)}: ${m[1]!.trim()}`);
    }
    expect(found).toEqual([]);
  });

  it("styles with logical sides (start/end), which mirror in Arabic, not physical left/right", () => {
    const found: string[] = [];
    for (const path of code) {
      const source = readFileSync(path, "utf8");
      for (const m of source.matchAll(PHYSICAL_UTILITY)) found.push(`${relative(UI, path)}:${lineOf(source, m.index)}: ${m[0]}`);
    }
    for (const path of css) {
      const source = readFileSync(path, "utf8");
      for (const m of source.matchAll(PHYSICAL_CSS)) found.push(`${relative(UI, path)}:${lineOf(source, m.index)}: ${m[0]}`);
    }
    expect(found).toEqual([]);
  });
});
