import { describe, expect, it } from "vitest";
import { titleOf } from "./titles.ts";

describe("the top bar's page title", () => {
  it("names each sidebar entry's page by its entry, and Dashboard by default", () => {
    expect(titleOf("/dashboard")).toBe("Dashboard");
    expect(titleOf("/")).toBe("Dashboard");
    expect(titleOf("/mcu")).toBe("MCU Manager");
    expect(titleOf("/farms")).toBe("Manage Farms");
    expect(titleOf("/settings-profile")).toBe("MCU Settings");
    expect(titleOf("/settings")).toBe("Settings");
  });

  it("gives the history pages their own title, not the title of the entry they sit under", () => {
    expect(titleOf("/mcu/12")).toBe("MCU History");
    expect(titleOf("/mcu/12/")).toBe("MCU History");
    expect(titleOf("/farms/3/history")).toBe("Farm History");
    expect(titleOf("/farms/3/members")).toBe("Farm Members");
    expect(titleOf("/farms/3/rota")).toBe("On-call Rota");
    expect(titleOf("/farms/3/audit")).toBe("Audit Trail");
  });
});
