import { describe, expect, it } from "vitest";
import { attachment, csvStream, line, linesOf, num, text, time, UTF8_BOM } from "./csv.ts";

describe("CSV fields", () => {
  it.each([
    ["Room A", "Room A"],
    ["Room A, east", '"Room A, east"'],
    ['The "big" room', '"The ""big"" room"'],
    ["two\nlines", '"two\nlines"'],
    ["=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""],
    ["+1 room", "'+1 room"],
    ["-west", "'-west"],
    ["@admin", "'@admin"],
    // A tab ends a cell for a reader splitting on tabs: quoted as well as defused.
    ["\tTab", "\"'\tTab\""],
    // A formula after what ends a cell for another reader (`;` in many locales, tab, `|`, a line
    // break), past any quotes, is defused; the cell is quoted.
    ["zz;=1+cmd|' /C calc'!A0", "\"zz;'=1+cmd|' /C calc'!A0\""],
    ["a\t+1", "\"a\t'+1\""],
    ["a|-1", "\"a|'-1\""],
    ["a,@SUM(1)", "\"a,'@SUM(1)\""],
    ['a;"=1"', '"a;\'""=1"""'],
    ["a\n=1", "\"a\n'=1\""],
    ["=1;=2", "\"'=1;'=2\""],
    // A separator alone is quoted and left as written.
    ["Pump busy; try later", '"Pump busy; try later"'],
    ["a|b", '"a|b"'],
    ["غرفة ١", "غرفة ١"],
    ["", ""],
  ])("text %j -> %s", (input, expected) => {
    expect(text(input)).toBe(expected);
  });

  it("writes numbers as they are, negative ones too, and nothing for null", () => {
    expect([num(-3.5), num(0), num(21.25), num(null), num(Number.NaN)]).toEqual(["-3.5", "0", "21.25", "", ""]);
  });

  it("writes times in ISO 8601 UTC", () => {
    expect(time(Date.parse("2026-06-01T08:00:00Z"))).toBe("2026-06-01T08:00:00Z");
    expect(time(Date.parse("2026-06-01T08:00:00.250Z"))).toBe("2026-06-01T08:00:00.250Z");
  });
});

describe("attachment", () => {
  it("names the file after the MCU and the range, in ASCII and as written", () => {
    const d = attachment('Room "A", east/1', "history", Date.parse("2026-05-31T08:00:00Z"), Date.parse("2026-06-01T08:00:30Z"));
    expect(d).toBe(`attachment; filename="Room-A-east-1_history_20260531T0800Z_20260601T080030Z.csv"; filename*=UTF-8''Room-A-east-1_history_20260531T0800Z_20260601T080030Z.csv`);
  });

  it("keeps a name in another script in filename* and falls back in filename", () => {
    const d = attachment("غرفة الفطر", "timeline", Date.parse("2026-05-31T08:00:00Z"), Date.parse("2026-06-01T08:00:00Z"));
    expect(d).toContain(`filename="export_timeline_20260531T0800Z_20260601T0800Z.csv"`);
    expect(decodeURIComponent(d.split("filename*=UTF-8''")[1]!)).toBe("غرفة-الفطر_timeline_20260531T0800Z_20260601T0800Z.csv");
  });
});

describe("csvStream", () => {
  it("writes a BOM, the header, then each chunk's lines", async () => {
    async function* chunks() {
      yield [1, 2];
      yield [3];
    }
    let out = "";
    for await (const piece of csvStream(["a", "b"], linesOf(chunks(), (n: number) => line([String(n), text(`x,${n}`)])))) out += String(piece);
    expect(out).toBe(`${UTF8_BOM}a,b\r\n1,"x,1"\r\n2,"x,2"\r\n3,"x,3"\r\n`);
  });
});
