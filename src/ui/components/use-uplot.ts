import { useLayoutEffect, useRef, type RefObject } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/**
 * A uPlot chart in the element `hostRef` points at, made for `options` (new options make a new
 * chart; the data then comes from `data`) and kept as wide as that element. React renders the
 * element once; the chart draws itself, and the caller updates it through `plotRef`
 * (setData, setScale) without rendering anything.
 */
export function useUplot(options: uPlot.Options | null, data: () => uPlot.AlignedData): { hostRef: RefObject<HTMLDivElement | null>; plotRef: RefObject<uPlot | null> } {
  const hostRef = useRef<HTMLDivElement | null>(null);
  const plotRef = useRef<uPlot | null>(null);
  const dataRef = useRef(data);
  dataRef.current = data;

  useLayoutEffect(() => {
    const host = hostRef.current;
    if (!host || !options) return;
    const width = () => Math.max(Math.floor(host.clientWidth), 120);
    const plot = new uPlot({ ...options, width: width() }, dataRef.current(), host);
    plotRef.current = plot;
    // Only the width follows the page (a rotated phone, an opened sidebar); the height is the layout's.
    const resize = new ResizeObserver(() => {
      const w = width();
      if (w !== plot.width) plot.setSize({ width: w, height: options.height });
    });
    resize.observe(host);
    return () => {
      resize.disconnect();
      plot.destroy();
      plotRef.current = null;
    };
  }, [options]);

  return { hostRef, plotRef };
}
