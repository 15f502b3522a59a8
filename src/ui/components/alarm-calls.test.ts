import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startTexts } from "../../test-support/i18n.ts";
import { chooseLanguage, i18n } from "../i18n/i18n.ts";
import { noticeText, stepLabel } from "./alarm-calls.tsx";

beforeAll(() => startTexts());

describe("an alarm's calls, as a line each", () => {
  beforeEach(() => {
    vi.stubEnv("TZ", "UTC");
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await startTexts();
  });

  const called = { client_id: 4, username: "ana", step: 0, reason: "first" as const, at: "2026-03-10T08:01:10Z", displayed_at: "2026-03-10T08:01:40Z" };

  it("says whom, at which step, when, and whether their device showed it", () => {
    const t = i18n.getFixedT("en", "team");
    expect(noticeText(t, called)).toBe("Called ana (on call) at 08:01 · displayed 08:01");
    expect(noticeText(t, { ...called, username: "sami", step: 1, at: "2026-03-10T08:16:00Z", displayed_at: null })).toBe("Called sami (backup) at 08:16 · not displayed yet");
  });

  it("names the last step for any step beyond it", () => {
    const t = i18n.getFixedT("en", "team");
    expect(stepLabel(t, 2)).toBe("managers and owners");
    expect(stepLabel(t, 5)).toBe("managers and owners");
  });

  it("says it in the reader's language and digits", async () => {
    await chooseLanguage({ language: "ar", digits: "arab" }, null);
    const t = i18n.getFixedT("ar", "team");
    const line = noticeText(t, { ...called, step: 1 });
    expect(line).toContain("ana");
    expect(line).toContain("٠٨:٠١");
    expect(line).not.toMatch(/Called|backup|displayed/);
  });
});
