import type uPlot from "uplot";
import { framesOf, releaseFrames } from "./chart-frames.ts";
import type { XRange } from "./x-range.ts";

/** A drag narrower than this is a tap or a slip, not a zoom. */
const MIN_DRAG_PX = 12;

/**
 * Binds a chart to the page's shared time span (x-range.ts): the chart shows the span's view, a
 * drag across it zooms every chart there, a double click resets them all. On a touch screen a
 * horizontal drag selects the same way (a vertical one still scrolls the page), a pinch zooms
 * around the fingers, and a tap shows the values under the finger. uPlot has no touch handling
 * of its own.
 */
export function xRangePlugin(range: XRange): uPlot.Plugin {
  let stop: (() => void) | null = null;
  return {
    opts: (_u, opts) => {
      const cursor = (opts.cursor ??= {});
      cursor.drag = { x: true, y: false, setScale: false };
      // The double click resets the shared span, not this chart alone to its data.
      cursor.bind = { ...cursor.bind, dblclick: () => () => (range.reset(), null) };
      opts.scales ??= {};
      opts.scales.x = {
        ...opts.scales.x,
        time: true,
        auto: false,
        range: (_self, min, max) => (min === null || max === null ? [...range.view()] : [min, max]),
      };
    },
    hooks: {
      init: [
        (u) => {
          const unsubscribe = range.subscribe(() => framesOf(u).scale(range.view));
          const untouch = bindTouch(u, range);
          stop = () => {
            unsubscribe();
            untouch();
          };
        },
      ],
      setSelect: [
        (u) => {
          const { left, width } = u.select;
          if (width >= MIN_DRAG_PX) range.zoomTo(u.posToVal(left, "x"), u.posToVal(left + width, "x"));
          u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
        },
      ],
      destroy: [
        (u) => {
          stop?.();
          releaseFrames(u);
        },
      ],
    },
  };
}

function bindTouch(u: uPlot, range: XRange): () => void {
  const over = u.over;
  over.style.touchAction = "pan-y";
  let startX: number | null = null;
  let pinch: { distance: number; span: readonly [number, number]; centre: number; centreFrac: number } | null = null;

  const xOf = (t: Touch) => t.clientX - over.getBoundingClientRect().left;
  const yOf = (t: Touch) => t.clientY - over.getBoundingClientRect().top;
  const height = () => over.clientHeight;

  function start(e: TouchEvent) {
    if (e.touches.length === 2) {
      const [a, b] = [e.touches[0]!, e.touches[1]!];
      const mid = (xOf(a) + xOf(b)) / 2;
      const view = range.view();
      pinch = { distance: Math.abs(xOf(a) - xOf(b)) || 1, span: view, centre: u.posToVal(mid, "x"), centreFrac: mid / over.clientWidth };
      startX = null;
      u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
      return;
    }
    if (e.touches.length !== 1) return;
    startX = xOf(e.touches[0]!);
    u.setCursor({ left: startX, top: yOf(e.touches[0]!) });
  }

  function move(e: TouchEvent) {
    if (pinch && e.touches.length === 2) {
      e.preventDefault();
      const [a, b] = [e.touches[0]!, e.touches[1]!];
      const distance = Math.abs(xOf(a) - xOf(b)) || 1;
      const span = ((pinch.span[1] - pinch.span[0]) * pinch.distance) / distance;
      const min = pinch.centre - span * pinch.centreFrac;
      range.zoomTo(min, min + span);
      return;
    }
    if (startX === null || e.touches.length !== 1) return;
    const x = Math.max(0, Math.min(over.clientWidth, xOf(e.touches[0]!)));
    if (Math.abs(x - startX) >= MIN_DRAG_PX) e.preventDefault();
    u.setSelect({ left: Math.min(x, startX), top: 0, width: Math.abs(x - startX), height: height() }, false);
    u.setCursor({ left: x, top: yOf(e.touches[0]!) });
  }

  function end(e: TouchEvent) {
    if (pinch) {
      if (e.touches.length < 2) pinch = null;
      return;
    }
    if (startX === null) return;
    startX = null;
    const { left, width } = u.select;
    if (width >= MIN_DRAG_PX) range.zoomTo(u.posToVal(left, "x"), u.posToVal(left + width, "x"));
    u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
  }

  over.addEventListener("touchstart", start, { passive: true });
  over.addEventListener("touchmove", move, { passive: false });
  over.addEventListener("touchend", end);
  over.addEventListener("touchcancel", end);
  return () => {
    over.removeEventListener("touchstart", start);
    over.removeEventListener("touchmove", move);
    over.removeEventListener("touchend", end);
    over.removeEventListener("touchcancel", end);
  };
}
