import type uPlot from "uplot";
import type { Span } from "./x-range.ts";

/**
 * What a chart has to draw next, drawn at most once per frame and only while the chart is on
 * screen (or near it): a reading (new data) and the slide of the range that comes with it are one
 * redraw, not two, and a chart scrolled away costs nothing until it comes back. On a phone that
 * is one or two charts of six.
 */
export interface ChartFrames {
  /** New data: `get` is called when the frame draws, for the data of that moment. */
  data(get: () => uPlot.AlignedData): void;
  /** A new x span (the shared range slid or zoomed). */
  scale(get: () => Span): void;
  /** The same data and scales drawn again (what a draw hook paints changed). */
  redraw(): void;
}

const frames = new WeakMap<uPlot, ChartFrames & { destroy(): void }>();

/** The frames of chart `u`, made at its first use; `releaseFrames` when the chart is destroyed. */
export function framesOf(u: uPlot): ChartFrames {
  let f = frames.get(u);
  if (!f) frames.set(u, (f = makeFrames(u)));
  return f;
}

export function releaseFrames(u: uPlot): void {
  frames.get(u)?.destroy();
  frames.delete(u);
}

function makeFrames(u: uPlot): ChartFrames & { destroy(): void } {
  let data: (() => uPlot.AlignedData) | null = null;
  let scale: (() => Span) | null = null;
  let redraw = false;
  let frame = 0;
  let visible = true;

  function flush() {
    frame = 0;
    if (!visible) return;
    const d = data;
    const s = scale;
    const r = redraw;
    data = scale = null;
    redraw = false;
    const t0 = performance.now();
    if (d || s) {
      // uPlot's batch draws here and now, once for both (its default is a microtask per call).
      u.batch(() => {
        if (d) u.setData(d());
        if (s) {
          const [min, max] = s();
          u.setScale("x", { min, max });
        }
      });
    } else if (r) u.redraw(false);
    else return;
    performance.measure("history-chart-draw", { start: t0 });
  }
  function schedule() {
    if (frame === 0 && visible && (data || scale || redraw)) frame = requestAnimationFrame(flush);
  }

  const observer = new IntersectionObserver(
    (entries) => {
      visible = entries.some((e) => e.isIntersecting);
      schedule();
    },
    { rootMargin: "200px 0px" },
  );
  observer.observe(u.root);

  return {
    data(get) {
      data = get;
      schedule();
    },
    scale(get) {
      scale = get;
      schedule();
    },
    redraw() {
      redraw = true;
      schedule();
    },
    destroy() {
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    },
  };
}
