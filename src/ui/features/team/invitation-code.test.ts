import { describe, expect, it } from "vitest";
import { groupedCode, joinLink } from "./invitation-code.ts";

describe("an invitation code as it is shown and linked", () => {
  it("groups the code in fours, however it was typed", () => {
    expect(groupedCode("ABCDEFGHJKMNPQRSTVWXYZ23")).toBe("ABCD EFGH JKMN PQRS TVWX YZ23");
    expect(groupedCode("abcd-efgh ij")).toBe("ABCD EFGH IJ");
  });

  it("links the Join screen with the bare code", () => {
    expect(joinLink("https://farm.example", "abcd efgh")).toBe("https://farm.example/join?code=ABCDEFGH");
  });
});
