import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FocusEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** How many columns fit: `width` is the list's content width, `gap` the column gap in px. */
export type ColumnsFor = (width: number, gap: number) => number;

interface VirtualCardGridProps {
  ids: readonly number[];
  /** The responsive column count, as today's CSS grid of the page would lay it out. */
  columnsFor: ColumnsFor;
  /** A row's height before it is measured (a card's usual height); `wall` is true from 2560 px. */
  estimateRowHeight: (wall: boolean) => number;
  /** The gap between cards, as utility classes (read back in px for the row gap). */
  gapClassName: string;
  /** Classes of each list item (the cell holding one card). */
  itemClassName?: string;
  renderItem: (id: number) => ReactNode;
  /** The id of the heading naming the list. */
  labelledBy?: string;
  /** What the keyboard sentinels say while they pass focus on, in the person's language: e.g. "MCUs". */
  itemsName: string;
}

const WALL = "(min-width: 2560px)";
const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface Layout {
  columns: number;
  gap: number;
  /** The list's offset from the top of the document. */
  scrollMargin: number;
  wall: boolean;
}

/**
 * A grid of cards of which only the rows on screen (and one more each side) are mounted, so the
 * page's cost follows the screen and not the fleet. The page scrolls as one page (a window
 * virtualizer whose scroll margin is the list's offset in the document); each virtual row is a
 * CSS grid of `columns` equal columns with the page's gaps, so the grid looks as a plain CSS
 * grid would, with every row as high as its tallest card. Rows are measured as they mount.
 *
 * Screen readers get the list's size and each card's position (aria-setsize, aria-posinset).
 * Keyboard: a sentinel after the last mounted row (and one before the first, once the list is
 * scrolled) takes the focus that Tab moves past the mounted cards, scrolls the next card in and
 * gives it the focus, so Tab walks the whole list.
 */
export function VirtualCardGrid({ ids, columnsFor, estimateRowHeight, gapClassName, itemClassName = "", renderItem, labelledBy, itemsName }: VirtualCardGridProps) {
  const { t } = useTranslation("common");
  const listRef = useRef<HTMLDivElement>(null);
  const [layout, setLayout] = useState<Layout>({ columns: 1, gap: 0, scrollMargin: 0, wall: false });

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const measure = () => {
      const style = getComputedStyle(list);
      const gap = Number.parseFloat(style.rowGap) || 0;
      const next: Layout = {
        columns: Math.max(1, columnsFor(list.clientWidth, Number.parseFloat(style.columnGap) || gap)),
        gap,
        scrollMargin: Math.round(list.getBoundingClientRect().top + window.scrollY),
        wall: window.matchMedia(WALL).matches,
      };
      setLayout((prev) =>
        prev.columns === next.columns && prev.gap === next.gap && prev.scrollMargin === next.scrollMargin && prev.wall === next.wall ? prev : next,
      );
    };
    measure();
    // The list's width sets the columns; anything above it that grows or shrinks moves it, and
    // the body's size follows that.
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [columnsFor]);

  const { columns, gap, scrollMargin, wall } = layout;
  const count = ids.length;
  const rowCount = Math.ceil(count / columns);
  const estimate = estimateRowHeight(wall);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => estimate,
    overscan: 2,
    gap,
    scrollMargin,
    // A row's cards change with the column count: its measured height is then no longer its own.
    getItemKey: (index) => `${columns}:${index}`,
  });
  const rows = virtualizer.getVirtualItems();
  const firstMounted = rows.length ? rows[0]!.index * columns : 0;
  const lastMounted = rows.length ? Math.min(count, (rows[rows.length - 1]!.index + 1) * columns) - 1 : -1;

  // The card that is to get the focus once mounted (0-based), and from which side it is entered.
  const [focusTarget, setFocusTarget] = useState<{ index: number; forward: boolean } | null>(null);
  const moveFocusTo = useCallback(
    (index: number, forward: boolean) => {
      setFocusTarget({ index, forward });
      virtualizer.scrollToIndex(Math.floor(index / columns), { align: forward ? "end" : "start" });
    },
    [virtualizer, columns],
  );
  useEffect(() => {
    if (!focusTarget) return;
    const item = listRef.current?.querySelector<HTMLElement>(`[aria-posinset="${focusTarget.index + 1}"]`);
    if (!item) return; // not mounted yet: the scroll brings it, and this runs again then
    const inside = [...item.querySelectorAll<HTMLElement>(TABBABLE)];
    // A card with nothing to operate (an offline MCU's) takes the focus itself, so Tab goes on from it.
    const target = (focusTarget.forward ? inside[0] : inside[inside.length - 1]) ?? item;
    target.focus();
    setFocusTarget(null);
  });

  const fromInside = (e: FocusEvent) => e.relatedTarget instanceof Node && listRef.current?.contains(e.relatedTarget) === true;
  // Tab past the last mounted card goes on to the next; Shift+Tab coming back from after the list
  // enters it at its last card, as it would if every card were mounted.
  const onEndSentinel = (e: FocusEvent) => (fromInside(e) ? moveFocusTo(lastMounted + 1, true) : moveFocusTo(count - 1, false));
  const onStartSentinel = (e: FocusEvent) => (fromInside(e) ? moveFocusTo(firstMounted - 1, false) : moveFocusTo(0, true));

  return (
    <div>
      {firstMounted > 0 && (
        <span tabIndex={0} className="sr-only" onFocus={onStartSentinel}>
          {t("grid.previous", { items: itemsName })}
        </span>
      )}
      <div ref={listRef} role="list" aria-labelledby={labelledBy} className={gapClassName} style={{ position: "relative", height: virtualizer.getTotalSize() }}>
        {rows.map((row) => {
          const from = row.index * columns;
          return (
            <div
              key={row.key}
              role="none"
              data-index={row.index}
              ref={virtualizer.measureElement}
              className={`grid ${gapClassName}`}
              // Placed with `top`, not a transform: no stacking context that would put a card's
              // popover under the next row.
              style={{ position: "absolute", top: row.start - scrollMargin, insetInlineStart: 0, width: "100%", gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}
            >
              {ids.slice(from, from + columns).map((id, i) => (
                <div key={id} role="listitem" aria-setsize={count} aria-posinset={from + i + 1} tabIndex={-1} className={`rounded-2xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${itemClassName}`}>
                  {renderItem(id)}
                </div>
              ))}
            </div>
          );
        })}
      </div>
      {lastMounted < count - 1 && (
        <span tabIndex={0} className="sr-only" onFocus={onEndSentinel}>
          {t("grid.next", { items: itemsName })}
        </span>
      )}
    </div>
  );
}

/** The page's root font size in px (a rem), which the user's browser setting may change. */
export const remPx = () => Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
