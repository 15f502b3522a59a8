import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore, type RefObject } from "react";
import { useTranslation } from "react-i18next";
import type uPlot from "uplot";
import type { RecipePhase } from "../../../contract/grow.ts";
import { useUplot } from "../../components/use-uplot.ts";
import { numberFormat } from "../../i18n/format.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { num } from "./whole-number.ts";
import { previewSeries, previewSummary, setpointText, type PreviewSeries } from "./preview-series.ts";
import { daysText, upToText } from "./recipe-summary.ts";

const COLORS = { temp: "#c2410c", humidity: "#1d4ed8", co2: "#6d28d9", phase: "#6b7280", grid: "#e5e7eb", axis: "#374151" } as const;

const FONT_STACK = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const WALL = "(min-width: 2560px)";

/** The wall screen is read from across the room: larger type, taller plots. */
function useWall(): boolean {
  return useSyncExternalStore(
    (fn) => {
      const q = window.matchMedia(WALL);
      q.addEventListener("change", fn);
      return () => q.removeEventListener("change", fn);
    },
    () => window.matchMedia(WALL).matches,
  );
}

/**
 * A vertical line at each phase's start, and (on the upper plot) the phase's name at the top of
 * its span, cut to fit it. Reads the starts at each draw, so new phases need no new chart.
 */
function phaseLinesPlugin(starts: RefObject<PreviewSeries["starts"]>, fontPx: number, labels: boolean): uPlot.Plugin {
  return {
    hooks: {
      draw: [
        (u) => {
          const ctx = u.ctx;
          const list = starts.current;
          const { top, height, left, width } = u.bbox;
          const px = devicePixelRatio;
          ctx.save();
          ctx.strokeStyle = COLORS.phase;
          ctx.lineWidth = px;
          ctx.setLineDash([4 * px, 3 * px]);
          ctx.font = `600 ${fontPx * px}px ${FONT_STACK}`;
          ctx.fillStyle = COLORS.axis;
          ctx.textBaseline = "top";
          for (const [i, s] of list.entries()) {
            const x = Math.round(u.valToPos(s.day, "x", true));
            if (i > 0) {
              ctx.beginPath();
              ctx.moveTo(x, top);
              ctx.lineTo(x, top + height);
              ctx.stroke();
            }
            if (!labels) continue;
            const end = i + 1 < list.length ? u.valToPos(list[i + 1]!.day, "x", true) : left + width;
            const room = end - x - 8 * px;
            let text = s.name;
            while (text.length > 1 && ctx.measureText(text).width > room) text = text.slice(0, -2) + "…";
            if (room > 12 * px) ctx.fillText(text, x + 4 * px, top + 4 * px);
          }
          ctx.restore();
        },
      ],
    },
  };
}

/** A y range around the values with some room, within the setting's own limits; something sensible when there are none. */
const paddedRange =
  (floor: number, ceiling: number, pad: number, empty: [number, number]): uPlot.Range.Function =>
  (_u, min, max) =>
    min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max) ? empty : [Math.max(floor, Math.floor(min - pad)), Math.min(ceiling, Math.ceil(max + pad))];

function PreviewPlot({ series, which, wall, label }: { series: PreviewSeries; which: "climate" | "co2"; wall: boolean; label: string }) {
  const { t } = useTranslation("recipes");
  const { tag } = useLocale();
  const startsRef = useRef(series.starts);
  startsRef.current = series.starts;
  const fontPx = wall ? 22 : 12;
  // A new language or digits makes a new chart: its axes, key and values are written in them.
  const options = useMemo((): uPlot.Options => {
    const font = `${fontPx}px ${FONT_STACK}`;
    const numbers = numberFormat({ maximumFractionDigits: 1 }, tag);
    const tickValues = (_u: uPlot, splits: number[]) => splits.map((v) => numbers.format(v));
    const axis = { font, stroke: COLORS.axis, grid: { stroke: COLORS.grid, width: 1 }, ticks: { stroke: COLORS.grid, width: 1 }, values: tickValues };
    const lineWidth = wall ? 3 : 2;
    const x: uPlot.Axis = { ...axis, label: which === "co2" ? t("preview.daysFromStart") : undefined, labelFont: font, labelSize: fontPx * 2, space: fontPx * 4 };
    const day: uPlot.Series = { label: t("preview.day"), value: (_u, v) => (v === null ? "–" : t("preview.dayValue", { day: numbers.format(Math.round(v * 10) / 10) })) };
    const common = {
      width: 300,
      height: wall ? 300 : 170,
      // A key, not a read-out: a finger on a phone has no cursor to hover with; the table below has the values.
      legend: { show: true, live: false },
      cursor: { y: false, drag: { x: false, y: false } },
      plugins: [phaseLinesPlugin(startsRef, fontPx, which === "climate")],
    };
    if (which === "co2") {
      return {
        ...common,
        scales: { x: { time: false }, ppm: { range: paddedRange(0, 50_000, 200, [0, 2000]) } },
        axes: [x, { ...axis, scale: "ppm", size: wall ? 110 : 56, label: "ppm", labelFont: font, labelSize: fontPx * 1.6 }],
        series: [day, { label: t("preview.co2Legend"), scale: "ppm", stroke: COLORS.co2, width: lineWidth }],
      };
    }
    return {
      ...common,
      scales: { x: { time: false }, temp: { range: paddedRange(-20, 60, 2, [10, 30]) }, pct: { range: paddedRange(0, 100, 5, [0, 100]) } },
      axes: [
        x,
        { ...axis, scale: "temp", size: wall ? 110 : 56, label: "°C", labelFont: font, labelSize: fontPx * 1.6, stroke: COLORS.temp },
        { ...axis, scale: "pct", side: 1, size: wall ? 110 : 56, grid: { show: false }, label: "%", labelFont: font, labelSize: fontPx * 1.6, stroke: COLORS.humidity },
      ],
      series: [
        day,
        { label: t("preview.acLegend"), scale: "temp", stroke: COLORS.temp, width: lineWidth },
        { label: t("preview.offAboveLegend"), scale: "pct", stroke: COLORS.humidity, width: lineWidth, dash: [6, 4] },
        { label: t("preview.onBelowLegend"), scale: "pct", stroke: COLORS.humidity, width: lineWidth },
      ],
      bands: [{ series: [2, 3], fill: "rgba(29, 78, 216, 0.12)" }],
    };
  }, [which, wall, fontPx, t, tag]);

  const data = useCallback(
    (): uPlot.AlignedData => (which === "co2" ? [series.days, series.co2] : [series.days, series.acTarget, series.humidityOffAbove, series.humidityOnBelow]),
    [series, which],
  );
  const { hostRef, plotRef } = useUplot(options, data);
  // The chart stays; only its data changes as the grower types.
  useEffect(() => plotRef.current?.setData(data()), [data, plotRef]);

  return (
    <div>
      <p className="text-xs 4xl:text-lg font-medium text-gray-600 mb-1" aria-hidden="true">
        {label}
      </p>
      {/* The days run left to right in every language, as on the history charts; the words around them follow the page. */}
      <div dir="ltr" ref={hostRef} className="min-w-0 text-xs [&_.u-legend]:text-xs 4xl:[&_.u-legend]:text-xl" aria-hidden="true" />
    </div>
  );
}

/**
 * The planned setpoints over the whole cycle: the AC target and the humidifier's band on one plot,
 * the CO2 threshold (a scale of its own) under it, phase starts as dashed lines. A screen reader
 * reads the summary and a table of each phase's start and setpoints instead.
 */
export function RecipePreviewChart({ phases }: { phases: readonly RecipePhase[] }) {
  const { t } = useTranslation("recipes");
  useLocale();
  const wall = useWall();
  const series = useMemo(() => previewSeries(phases), [phases]);
  let start = 0;
  const rows = phases.map((p) => {
    const row = { phase: p, start };
    start += p.days;
    return row;
  });

  return (
    <figure className="m-0">
      <figcaption className="text-base 4xl:text-2xl font-semibold text-gray-900">{t("preview.heading")}</figcaption>
      <p className="text-sm 4xl:text-xl text-gray-600 mb-3">{t("preview.explain")}</p>
      {phases.length === 0 ? (
        <p className="rounded-xl border-2 border-dashed border-gray-200 px-4 py-8 text-center text-sm 4xl:text-xl text-gray-600">{t("preview.empty")}</p>
      ) : (
        <>
          <div role="img" aria-label={previewSummary(phases)} className="grid gap-3">
            <PreviewPlot series={series} which="climate" wall={wall} label={t("preview.climateLabel")} />
            <PreviewPlot series={series} which="co2" wall={wall} label={t("preview.co2Legend")} />
          </div>
          {/* A table ignores a 1 px width: its box is the one kept out of sight. */}
          <div className="sr-only">
          <table>
            <caption>{t("preview.table.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("preview.table.phase")}</th>
                <th scope="col">{t("preview.table.starts")}</th>
                <th scope="col">{t("preview.table.length")}</th>
                <th scope="col">{t("preview.table.ac")}</th>
                <th scope="col">{t("preview.table.onBelow")}</th>
                <th scope="col">{t("preview.table.offAbove")}</th>
                <th scope="col">{t("preview.table.co2")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ phase, start: day }, i) => (
                <tr key={i}>
                  <th scope="row">{phase.name}</th>
                  <td>{t("preview.dayValue", { day: num(day) })}</td>
                  <td>{phase.confirm === null ? daysText(phase.days) : t("preview.table.waits", { length: upToText(phase.days), confirm: phase.confirm })}</td>
                  <td>{setpointText(phase, (c) => c.ac.target_temp, "°C")}</td>
                  <td>{setpointText(phase, (c) => c.humidifier.humidity_on_below, "%")}</td>
                  <td>{setpointText(phase, (c) => c.humidifier.humidity_off_above, "%")}</td>
                  <td>{setpointText(phase, (c) => c.ventilation.co2_threshold, "ppm")}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
        </>
      )}
    </figure>
  );
}
