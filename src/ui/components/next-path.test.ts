import { describe, expect, it } from "vitest";
import { nextPathOf, safeNextPath, withNext } from "./next-path.ts";

describe("the path a sign-in comes back to", () => {
  it("takes a path of this app, with its query", () => {
    expect(safeNextPath("/join?code=ABCD")).toBe("/join?code=ABCD");
    expect(nextPathOf(`?${new URLSearchParams({ next: "/join?code=AB CD" })}`)).toBe("/join?code=AB CD");
  });

  it("refuses another site's address, however it is spelled", () => {
    for (const bad of ["//evil.example", "/\\evil.example", "https://evil.example", "evil.example", "javascript:alert(1)", "/\t/evil.example", ""]) expect(safeNextPath(bad)).toBeNull();
    expect(nextPathOf("?next=%2F%2Fevil.example")).toBeNull();
    expect(nextPathOf("")).toBeNull();
  });

  it("carries it from one page to the next, and adds nothing when there is none", () => {
    expect(withNext("/login", "/join?code=X")).toBe("/login?next=%2Fjoin%3Fcode%3DX");
    expect(nextPathOf(withNext("/login", "/join?code=X").slice("/login".length))).toBe("/join?code=X");
    expect(withNext("/login", null)).toBe("/login");
  });
});
