/**
 * The time span every chart of a page shows, shared so that the charts and the timeline stay on
 * one axis: the range picked (which slides forward while it ends now) and, while the farmer has
 * zoomed, the part of it zoomed to. Each chart listens and sets its x scale; none of them owns it.
 */
export type Span = readonly [min: number, max: number];

export interface XRange {
  /** What the charts show: the zoom, else the whole range. */
  view(): Span;
  full(): Span;
  zoomed(): boolean;
  /** A new or slid range; a zoom stays where it is while it still lies within it. */
  setFull(span: Span): void;
  /** Zooms to [min, max], kept within the range and no narrower than `minSpanMs`. */
  zoomTo(min: number, max: number): void;
  /** Zooms in (factor < 1) or out (> 1) around the view's centre; out past the range resets. */
  zoomBy(factor: number): void;
  reset(): void;
  subscribe(fn: () => void): () => void;
}

export function createXRange(initial: Span, minSpanMs: number): XRange {
  let full: Span = initial;
  let zoom: Span | null = null;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const fn of [...listeners]) fn();
  };

  function clamp(min: number, max: number): Span | null {
    const [lo, hi] = full;
    let a = Math.max(lo, Math.min(min, max));
    let b = Math.min(hi, Math.max(min, max));
    if (b - a < minSpanMs) {
      const mid = (a + b) / 2;
      a = Math.max(lo, mid - minSpanMs / 2);
      b = Math.min(hi, a + minSpanMs);
      a = Math.max(lo, b - minSpanMs);
    }
    // A zoom that covers the range is no zoom.
    if (a <= lo && b >= hi) return null;
    return [a, b];
  }

  return {
    view: () => zoom ?? full,
    full: () => full,
    zoomed: () => zoom !== null,
    setFull(span) {
      if (span[0] === full[0] && span[1] === full[1]) return;
      full = span;
      if (zoom && (zoom[0] < span[0] || zoom[1] > span[1])) zoom = clamp(zoom[0], zoom[1]);
      notify();
    },
    zoomTo(min, max) {
      zoom = clamp(min, max);
      notify();
    },
    zoomBy(factor) {
      const [a, b] = zoom ?? full;
      const mid = (a + b) / 2;
      const half = ((b - a) * factor) / 2;
      zoom = clamp(mid - half, mid + half);
      notify();
    },
    reset() {
      if (zoom === null) return;
      zoom = null;
      notify();
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
