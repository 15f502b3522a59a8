import { useLayoutEffect, useState, type RefObject } from "react";
import type { WallRequest } from "../../../contract/live.ts";

export type WallLayout = Omit<WallRequest, "page">;

const px = (value: string) => Number.parseFloat(value) || 0;

/**
 * The wall's layout as the core pages it: the main area's size, and a tile (of the least width a
 * tile may have) and a farm heading, read from a hidden sample section styled like the real ones,
 * so the numbers follow the CSS (and the fonts) instead of repeating them. Measured again whenever
 * the screen or the sample changes size; whole pixels, so a sub-pixel wobble does not ask for new
 * pages.
 */
export function useWallLayout(main: RefObject<HTMLElement | null>, sample: RefObject<HTMLElement | null>): WallLayout | null {
  const [layout, setLayout] = useState<WallLayout | null>(null);

  useLayoutEffect(() => {
    const area = main.current;
    const section = sample.current;
    const heading = section?.firstElementChild as HTMLElement | null | undefined;
    const grid = heading?.nextElementSibling as HTMLElement | null | undefined;
    const tile = grid?.firstElementChild as HTMLElement | null | undefined;
    if (!area || !section || !heading || !grid || !tile) return;
    const measure = () => {
      const a = getComputedStyle(area);
      const tileBox = tile.getBoundingClientRect();
      const next: WallLayout = {
        width: Math.floor(area.clientWidth - px(a.paddingLeft) - px(a.paddingRight)),
        height: Math.floor(area.clientHeight - px(a.paddingTop) - px(a.paddingBottom)),
        tileWidth: Math.ceil(tileBox.width),
        tileHeight: Math.ceil(tileBox.height),
        gap: Math.ceil(px(getComputedStyle(grid).columnGap)),
        headingHeight: Math.ceil(heading.getBoundingClientRect().height + px(getComputedStyle(section).rowGap)),
        sectionGap: Math.ceil(px(a.rowGap)),
      };
      setLayout((prev) => (prev && (Object.keys(next) as (keyof WallLayout)[]).every((k) => prev[k] === next[k]) ? prev : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(area);
    observer.observe(tile);
    observer.observe(heading);
    return () => observer.disconnect();
  }, [main, sample]);

  return layout;
}
