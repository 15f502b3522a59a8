import { describe, expect, it } from "vitest";
import { claimCodeFromBytes, deviceLabel, formatClaimCode, isClaimCode, normalizeClaimCode, readDeviceLabel } from "./claim-code.ts";

describe("claim codes", () => {
  it("are 12 Crockford base32 characters in three groups, from 60 bits", () => {
    expect(claimCodeFromBytes(new Uint8Array(8))).toBe("0000-0000-0000");
    expect(claimCodeFromBytes(new Uint8Array(8).fill(0xff))).toBe("ZZZZ-ZZZZ-ZZZZ");
    const code = claimCodeFromBytes(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]));
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(() => claimCodeFromBytes(new Uint8Array(7))).toThrow();
  });

  it("read as a person types them: any case, spaces or dashes, O for 0 and I or L for 1", () => {
    expect(normalizeClaimCode(" 7k2m 9qxd-4twa ")).toBe("7K2M9QXD4TWA");
    expect(normalizeClaimCode("OIL0-0000-0000")).toBe("011000000000");
    expect(formatClaimCode("7k2m9qxd4twa")).toBe("7K2M-9QXD-4TWA");
    expect(isClaimCode("7k2m 9qxd 4twa")).toBe(true);
    expect(isClaimCode("7K2M-9QXD-4TW")).toBe(false);
    expect(isClaimCode("7K2M-9QXD-4TWU")).toBe(false); // U is not in the alphabet
    expect(isClaimCode("7K2M-9QXD-4TWA-0")).toBe(false);
  });

  it("travel on the label with the MAC, and a label of only a MAC still reads", () => {
    const text = deviceLabel("02-4d-46-00-01-01", "7k2m9qxd4twa");
    expect(text).toBe("MAC:02:4D:46:00:01:01;CODE:7K2M-9QXD-4TWA;");
    expect(readDeviceLabel(text)).toEqual({ mac: "02:4D:46:00:01:01", claimCode: "7K2M-9QXD-4TWA" });
    expect(readDeviceLabel("code:7k2m9qxd4twa ; mac:02-4d-46-00-01-01")).toEqual({ mac: "02:4D:46:00:01:01", claimCode: "7K2M-9QXD-4TWA" });
    expect(readDeviceLabel("02:4D:46:00:01:01")).toEqual({ mac: "02:4D:46:00:01:01" });
    expect(readDeviceLabel("MAC:02:4D:46:00:01:01;CODE:NOPE;")).toEqual({ mac: "02:4D:46:00:01:01" });
    expect(readDeviceLabel("MAC:02:4D:46;CODE:7K2M-9QXD-4TWA;")).toBeUndefined();
    expect(readDeviceLabel("https://example.com")).toBeUndefined();
  });
});
