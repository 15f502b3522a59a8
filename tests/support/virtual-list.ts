import type { Locator, Page } from "playwright";

/**
 * Helpers for the virtualized card lists (the dashboard's MCU Readings, the MCU Manager): only
 * the cards near the screen are mounted, so a test that wants a card further down scrolls the
 * window to it, as a user would.
 */

/** Two frames: the virtualizer renders the new range on the scroll event, before them. */
// Strings, as the tests' TypeScript has no DOM types.
const frames = (page: Page) => page.evaluate("new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))");

/** Scrolls the window down by most of a screen; false once at the bottom. */
const scrollDown = async (page: Page) =>
  (await page.evaluate("(() => { const before = window.scrollY; window.scrollBy(0, Math.round(window.innerHeight * 0.8)); return window.scrollY !== before; })()")) === true;

const toTop = async (page: Page) => {
  await page.evaluate("window.scrollTo(0, 0)");
  await frames(page);
};

/** The number of cards of a virtualized list (its aria-setsize), mounted or not; 0 when it shows none. */
export async function listSize(list: Locator): Promise<number> {
  const first = list.locator('[role="listitem"][aria-setsize]').first();
  return (await first.count()) ? Number(await first.getAttribute("aria-setsize")) : 0;
}

/** Scrolls the window through a virtualized list and back: every card's name (its h3), in list order. */
export async function allCardNames(page: Page, list: Locator): Promise<string[]> {
  const names = new Map<number, string>();
  await toTop(page);
  do {
    const seen = await list
      .locator('[role="listitem"][aria-posinset]')
      .evaluateAll((items) => items.map((i) => [Number(i.getAttribute("aria-posinset")), i.querySelector("article h3")?.textContent ?? ""] as const));
    for (const [position, name] of seen) names.set(position, name);
  } while ((await scrollDown(page)) && (await frames(page), true));
  await toTop(page);
  return [...names.entries()].sort((a, b) => a[0] - b[0]).map(([, name]) => name);
}

/** Scrolls the window down from the top until the card named `name` is mounted, and into view; its locator. */
export async function revealCard(page: Page, name: string): Promise<Locator> {
  const card = page.getByRole("article", { name, exact: true });
  await toTop(page);
  do {
    // The card may be unmounted between the count and the scroll (the list re-sorted or scrolled on
    // a live change): then scrolling to it fails fast and the search goes on from here.
    if ((await card.count()) > 0 && (await card.scrollIntoViewIfNeeded({ timeout: 2_000 }).then(() => true, () => false))) return card;
  } while ((await scrollDown(page)) && (await frames(page), true));
  return card;
}

/**
 * Like revealCard, for a card that may still be on its way (a list loading, an MCU just added):
 * tries again until it is there or `timeout` ms passed, then returns its locator either way.
 */
export async function scrollToCard(page: Page, name: string, timeout = 15_000): Promise<Locator> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const card = await revealCard(page, name);
    if ((await card.count()) > 0 || Date.now() > deadline) return card;
    await page.waitForTimeout(250);
  }
}
