export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once `ok` holds, polling every 5 ms; fails saying what it waited for after `ms`. */
export async function until(what: string, ok: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}
