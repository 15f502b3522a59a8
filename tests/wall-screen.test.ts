import { join } from "node:path";
import { mkdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, startDemoApp, type DemoApp } from "./support/app-harness.ts";

/**
 * The wall view of the demo fleet (three farms of four MCUs) on a 3840x2160 screen, as a new user
 * sees it from across the room: the bar's words and how much of the screen the tiles take.
 */
describe("the wall view read across a room", () => {
  let app: DemoApp;
  beforeAll(async () => {
    app = await startDemoApp();
  });
  afterAll(() => app?.stop());

  it("shows the time, the fleet and the page no smaller than a tile's name, and fills the screen to its bottom", async () => {
    const { context, page } = await app.newPage("wall");
    await signIn(page);
    await page.goto("/wall?rotate=0");
    await page.getByRole("group", { name: /./ }).locator("h3").first().waitFor({ timeout: 30_000 });
    // Tiles are laid out at their final size once every farm's MCUs are known.
    await expect.poll(() => page.getByRole("group", { name: /./ }).locator("h3").count(), { timeout: 30_000 }).toBe(12);
    await page.locator(".wall-bar p").first().waitFor();

    // Strings, as the tests' TypeScript has no DOM types.
    const sizes = (await page.evaluate(`(() => {
      const px = (el) => Number.parseFloat(getComputedStyle(el).fontSize);
      const bar = document.querySelector(".wall-bar");
      return {
        clock: px(bar.querySelector("time")),
        texts: [...bar.querySelectorAll("p")].map(px),
        tileName: Math.max(...[...document.querySelectorAll("article[role=group] h3")].map(px)),
      };
    })()`)) as { clock: number; texts: number[]; tileName: number };
    // A tile of the base size names its MCU at 40 px on this screen; the bar reads at least as well.
    expect(sizes.texts.length).toBeGreaterThan(0);
    expect(Math.min(sizes.clock, ...sizes.texts)).toBeGreaterThanOrEqual(40);
    expect(sizes.clock).toBeGreaterThanOrEqual(56);

    const space = (await page.evaluate(`(() => {
      const tiles = [...document.querySelectorAll("article[role=group]")].map((t) => t.getBoundingClientRect());
      return { bottom: Math.max(...tiles.map((r) => r.bottom)), right: Math.max(...tiles.map((r) => r.right)), height: innerHeight, width: innerWidth };
    })()`)) as { bottom: number; right: number; height: number; width: number };
    // Wholly on screen, and no band of the screen left empty below the last row.
    expect(space.bottom).toBeLessThanOrEqual(space.height);
    expect(space.right).toBeLessThanOrEqual(space.width);
    expect((space.height - space.bottom) / space.height).toBeLessThan(0.04);

    const shots = join(process.cwd(), "test-results");
    await mkdir(shots, { recursive: true });
    await page.screenshot({ path: join(shots, "wall-demo-3840x2160.png") });
    await context.close();
  });
});
