import { beforeAll, describe, expect, it } from "vitest";
import { startTexts } from "../../test-support/i18n.ts";
import { i18n } from "../i18n/i18n.ts";
import { titleOf } from "./titles.ts";

describe("the top bar's page title", () => {
  beforeAll(() => startTexts());
  const title = (pathname: string) => titleOf(pathname, i18n.getFixedT("en", "common"));

  it("names each sidebar entry's page by its entry, and Dashboard by default", () => {
    expect(title("/dashboard")).toBe("Dashboard");
    expect(title("/")).toBe("Dashboard");
    expect(title("/mcu")).toBe("MCU Manager");
    expect(title("/farms")).toBe("Manage Farms");
    expect(title("/settings-profile")).toBe("MCU Settings");
    expect(title("/settings")).toBe("Settings");
  });

  it("gives the history pages their own title, not the title of the entry they sit under", () => {
    expect(title("/mcu/12")).toBe("MCU History");
    expect(title("/mcu/12/")).toBe("MCU History");
    expect(title("/farms/3/history")).toBe("Farm History");
    expect(title("/farms/3/members")).toBe("Farm Members");
    expect(title("/farms/3/rota")).toBe("On-call Rota");
    expect(title("/farms/3/audit")).toBe("Audit Trail");
  });

  it("follows the person's language", async () => {
    await startTexts({ language: "fr", digits: "latn" });
    expect(titleOf("/farms/3/history", i18n.getFixedT("fr", "common"))).not.toBe("Farm History");
    await startTexts();
  });
});
