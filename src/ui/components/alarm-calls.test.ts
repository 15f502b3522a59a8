import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { noticeText, stepLabel } from "./alarm-calls.tsx";

describe("an alarm's calls, as a line each", () => {
  beforeEach(() => {
    vi.stubEnv("TZ", "UTC");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("says whom, at which step, when, and whether their device showed it", () => {
    const called = { client_id: 4, username: "ana", step: 0, reason: "first" as const, at: "2026-03-10T08:01:10Z", displayed_at: "2026-03-10T08:01:40Z" };
    expect(noticeText(called)).toBe("Called ana (on call) at 08:01 · displayed 08:01");
    expect(noticeText({ ...called, username: "sami", step: 1, at: "2026-03-10T08:16:00Z", displayed_at: null })).toBe("Called sami (backup) at 08:16 · not displayed yet");
  });

  it("names the last step for any step beyond it", () => {
    expect(stepLabel(2)).toBe("managers and owners");
    expect(stepLabel(5)).toBe("managers and owners");
  });
});
