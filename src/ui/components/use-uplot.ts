import { useLayoutEffect, useRef, type RefObject } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { dateTimeFormat, numberFormat } from "../i18n/format.ts";
import { useLocale } from "../i18n/i18n.ts";

/**
 * A uPlot chart in the element `hostRef` points at, made for `options` (new options make a new
 * chart; the data then comes from `data`) and kept as wide as that element. React renders the
 * element once; the chart draws itself, and the caller updates it through `plotRef`
 * (setData, setScale) without rendering anything.
 *
 * The host element should be `dir="ltr"`: a chart's time runs left to right (past to future) in
 * every language. Its words are the caller's (series labels, legend values) and the axes'
 * (`timeAxisValues`, `numberAxisValues`), which read the person's language and digits when they
 * draw: a change of either redraws the axes here.
 */
export function useUplot(options: uPlot.Options | null, data: () => uPlot.AlignedData): { hostRef: RefObject<HTMLDivElement | null>; plotRef: RefObject<uPlot | null> } {
  const hostRef = useRef<HTMLDivElement | null>(null);
  const plotRef = useRef<uPlot | null>(null);
  const dataRef = useRef(data);
  dataRef.current = data;
  const { tag } = useLocale();

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

  // Another language or digits: the axes' labels are written again (the chart itself stays).
  const drawnTag = useRef(tag);
  useLayoutEffect(() => {
    if (drawnTag.current === tag) return;
    drawnTag.current = tag;
    plotRef.current?.redraw(false, true);
  }, [tag]);

  return { hostRef, plotRef };
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Below this a time axis steps in days; from it, in months. */
const MONTHS = 28 * DAY;

/**
 * A time axis's labels (ms since the epoch, local time) in the person's language and digits,
 * as fine as the axis's step: hours and minutes with the day under the first tick of each day,
 * days with the year under the first of each year, months with the year likewise. Two lines are
 * "time\nday" (a size function can look for the "\n").
 */
export const timeAxisValues: uPlot.Axis.DynamicValues = (_u, splits, _axis, _space, incr) => {
  // Days as numbers ("11/28", "٢٨/١١"): a month's name can be long ("تشرين الثاني") for a tick's room.
  const day: Intl.DateTimeFormatOptions = { day: "numeric", month: "numeric" };
  const [tick, under]: [Intl.DateTimeFormatOptions, Intl.DateTimeFormatOptions] =
    incr < MINUTE
      ? [{ hour: "numeric", minute: "2-digit", second: "2-digit" }, day]
      : incr < DAY
        ? [incr % HOUR === 0 ? { hour: "numeric" } : { hour: "numeric", minute: "2-digit" }, day]
        : incr < MONTHS
          ? [day, { year: "numeric" }]
          : [{ month: "short" }, { year: "numeric" }];
  const tickFormat = dateTimeFormat(tick);
  const underFormat = dateTimeFormat(under);
  let last = "";
  return splits.map((v) => {
    if (!Number.isFinite(v)) return "";
    const below = underFormat.format(v);
    const text = tickFormat.format(v);
    if (below === last) return text;
    last = below;
    return `${text}\n${below}`;
  });
};

/** How many decimals an axis's step needs (0.25 → 2, 5 → 0). */
const decimalsOf = (incr: number) => (Number.isFinite(incr) ? (String(Number(incr.toFixed(6))).split(".")[1]?.length ?? 0) : 0);

/** A value axis's labels in the person's digits, with the decimals its step needs. */
export const numberAxisValues: uPlot.Axis.DynamicValues = (_u, splits, _axis, _space, incr) => {
  const decimals = decimalsOf(incr);
  const f = numberFormat({ minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return splits.map((v) => (Number.isFinite(v) ? f.format(v) : ""));
};
