import { vi } from "vitest";

/** For browser tests: resolves once `check` holds, polling; fails saying what it waited for after `ms`. Not part of the app. */
export function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  return vi.waitFor(
    () => {
      if (!check()) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: ms, interval: 25 },
  );
}
