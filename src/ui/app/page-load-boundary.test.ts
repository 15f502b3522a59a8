import { afterEach, describe, expect, it, vi } from "vitest";
import { CHUNK_LOAD_TIMEOUT_MS, loadWithRetry } from "./page-load-boundary.tsx";

describe("loading a screen's script", () => {
  afterEach(() => vi.useRealTimers());

  it("tries once more a second after a failure", async () => {
    vi.useFakeTimers();
    const load = vi.fn().mockRejectedValueOnce(new Error("net::ERR_NETWORK_CHANGED")).mockResolvedValueOnce("screen");
    const loaded = loadWithRetry(load);
    await vi.advanceTimersByTimeAsync(999);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(loaded).resolves.toBe("screen");
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("gives up after two attempts that outlast SPEC's 120 s time-out", async () => {
    vi.useFakeTimers();
    const load = vi.fn(() => new Promise<string>(() => {}));
    const loaded = loadWithRetry(load);
    const outcome = loaded.then(
      () => "loaded",
      (err: Error) => err.message,
    );
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS * 2 + 1000);
    expect(await outcome).toBe("The screen took too long to load");
    expect(load).toHaveBeenCalledTimes(2);
  });
});
