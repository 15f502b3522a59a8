import { describe, expect, it } from "vitest";
import { macFromScan } from "./scanned-mac.ts";

describe("macFromScan", () => {
  it.each([
    ["AA:BB:CC:DD:EE:FF", "AA:BB:CC:DD:EE:FF"],
    ["aa-bb-cc-dd-ee-0f", "AA:BB:CC:DD:EE:0F"],
    ["024d46000201", "02:4D:46:00:02:01"],
    ["  02:4d:46:00:02:01\n", "02:4D:46:00:02:01"],
    ["MAC: AA:BB:CC:DD:EE:FF", "AA:BB:CC:DD:EE:FF"],
    ["MAC:AA:BB:CC:DD:EE:FF", "AA:BB:CC:DD:EE:FF"],
    ["https://mushroom.farm/device?mac=02-4D-46-00-01-02&v=1", "02:4D:46:00:01:02"],
    ["https://mushroom.farm/d/024D46000102", "02:4D:46:00:01:02"],
  ])("reads %j as %s", (text, mac) => {
    expect(macFromScan(text)).toBe(mac);
  });

  it.each(["", "hello", "AA:BB:CC:DD:EE", "AA:BB-CC:DD:EE:FF", "GG:BB:CC:DD:EE:FF", "024d4600020", "0x024d460002011", "AA:BB:CC:DD:EE:FF0"])("rejects %j", (text) => {
    expect(macFromScan(text)).toBeNull();
  });
});
