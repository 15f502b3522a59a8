import type uPlot from "uplot";
import { numberAxisValues, timeAxisValues } from "../../components/use-uplot.ts";
import { AXIS_STROKE, GRID_STROKE, type ChartLayout } from "./chart-layout.ts";
import { formatMoment } from "./history-words.ts";

/**
 * What every chart of a page shares: time in ms on x, the layout's type and axis sizes (the y
 * axis as wide on every chart, so stacked plots line up), and a cursor synced across the page's
 * charts by `syncKey`. Only the cursor's position is shared through uPlot's sync; a drag or a
 * double click acts through the page's shared span (x-range-plugin.ts), once. The axes write
 * times and values in the person's language and digits.
 */
export function baseOptions(layout: ChartLayout, syncKey: string): Omit<uPlot.Options, "series" | "width"> {
  const axis = { font: layout.font, stroke: AXIS_STROKE, grid: { stroke: GRID_STROKE, width: 1 }, ticks: { stroke: GRID_STROKE, width: 1 } };
  const fontPx = parseInt(layout.font, 10);
  return {
    height: layout.height,
    ms: 1,
    cursor: {
      sync: { key: syncKey, filters: { pub: (type) => type === "mousemove" || type === "mouseleave" || type === "mouseenter" } },
    },
    axes: [
      { ...axis, space: layout.xSpace, size: xAxisSize(fontPx), values: timeAxisValues },
      { ...axis, size: layout.yAxisSize, space: Math.round(fontPx * 2.5), values: numberAxisValues },
    ],
  };
}

/** The time axis is one line high, two where a tick also names its day ("12 AM" over "Nov 25"). */
function xAxisSize(fontPx: number): uPlot.Axis.Size {
  return (_u, values) => Math.round(fontPx * (values?.some((v) => String(v).includes("\n")) ? 3.8 : 2.6));
}

/** The legend's time: the reading's date and time in the person's language. */
export const timeValue = (_u: uPlot, v: number | null) => (v === null ? "–" : formatMoment(v));
