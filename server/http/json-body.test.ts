import { describe, expect, it } from "vitest";
import { jsonDepth, MAX_JSON_DEPTH } from "./json-body.ts";

describe("jsonDepth", () => {
  it("counts objects and arrays, not brackets inside strings or after escaped quotes", () => {
    expect(jsonDepth("1")).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":2}]}')).toBe(3);
    expect(jsonDepth('{"a":"[[[{{{"}')).toBe(1);
    expect(jsonDepth('{"a":"say \\"[[\\" twice","b":[[]]}')).toBe(3);
    expect(jsonDepth('["\\\\",[1]]')).toBe(2);
  });

  it("stops once past the limit", () => {
    expect(jsonDepth("[".repeat(100_000), MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH + 1);
  });
});
