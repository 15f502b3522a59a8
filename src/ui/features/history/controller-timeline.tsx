import type { TFunction } from "i18next";
import { useEffect, useId, useMemo, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import type uPlot from "uplot";
import { STATE_TARGETS } from "../../../contract/history-values.ts";
import { LoadError } from "../../components/states.tsx";
import { useLocale } from "../../i18n/i18n.ts";
import { useChartLayout, type ChartLayout } from "./chart-layout.ts";
import { framesOf } from "./chart-frames.ts";
import { baseOptions } from "./chart-options.ts";
import { formatMoment, switchHead, switchReasonWords, targetName } from "./history-words.ts";
import type { LiveValue } from "./live-value.ts";
import { describeLane, segmentsOf, summarizeLane, switchNear, type Lanes, type StateChange } from "./timeline.ts";
import type { Load } from "./use-load.ts";
import { useUplot } from "../../components/use-uplot.ts";
import "./history-charts.css";
import type { XRange } from "./x-range.ts";
import { xRangePlugin } from "./x-range-plugin.ts";

const ON = "#16a34a";
const OFF = "#e5e7eb";
const AUTO = "#2563eb";
const LABEL = "#1f2937";

/**
 * Paints each controller's lane: its name, a bar green while it was on and grey while off, and a
 * thin blue stripe under it while its automation was on. The states come from `lanes` at paint
 * time, so a redraw after a change shows it; the last state lasts until now.
 */
function lanesPlugin(t: TFunction<"history">, lanes: LiveValue<Lanes>, layout: ChartLayout): uPlot.Plugin {
  return {
    hooks: {
      draw: [
        (u) => {
          const { ctx, bbox } = u;
          const dpr = devicePixelRatio;
          const laneH = bbox.height / STATE_TARGETS.length;
          const min = u.scales.x?.min ?? 0;
          const max = u.scales.x?.max ?? 0;
          const end = Math.min(max, Date.now());
          const fontPx = parseInt(layout.font, 10);
          const labelH = (fontPx + 4) * dpr;
          const x = (v: number) => Math.round(u.valToPos(v, "x", true));
          ctx.save();
          ctx.beginPath();
          ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
          ctx.clip();
          ctx.font = layout.font.replace(/^\d+px/, `${Math.round(fontPx * dpr)}px`);
          // uPlot leaves the y axis's alignment on the context; the chart's box is left to right in every language.
          ctx.textAlign = "start";
          ctx.textBaseline = "top";
          STATE_TARGETS.forEach((target, i) => {
            const top = bbox.top + i * laneH;
            const barTop = top + labelH;
            const barH = Math.max(laneH - labelH - 3 * dpr, 4 * dpr);
            const stripeH = Math.max(Math.round(barH * 0.25), 2 * dpr);
            for (const s of segmentsOf(lanes.value[target], min, end)) {
              const x0 = x(s.from);
              const w = Math.max(x(s.to) - x0, 1);
              ctx.fillStyle = s.status ? ON : OFF;
              ctx.fillRect(x0, barTop, w, barH - stripeH);
              if (s.auto) {
                ctx.fillStyle = AUTO;
                ctx.fillRect(x0, barTop + barH - stripeH, w, stripeH);
              }
            }
            ctx.fillStyle = LABEL;
            ctx.fillText(targetName(t, target), bbox.left + 4 * dpr, top + 2 * dpr);
          });
          ctx.restore();
        },
      ],
    },
  };
}

/** How near (CSS px) a pointer or a tap must come to a switch for its tooltip. */
const HOVER_SLACK_PX = 10;

/** A switch in words for its tooltip: when, and why (the rule, or who), else only what. */
function switchText(t: TFunction<"history">, target: (typeof STATE_TARGETS)[number], c: StateChange): string {
  const why = c.cause ? switchReasonWords(t, { target, on: c.status, source: c.cause.source, actor: c.cause.actor, why: c.cause.why }) : null;
  return t("timeline.tooltip", { at: formatMoment(c.at), what: why ?? switchHead(t, target, c.status) });
}

/**
 * Shows a switch's reason while the pointer is over it (a tap on a phone moves the pointer there
 * too): the lane under the pointer, its switch nearest in time within HOVER_SLACK_PX. Only the
 * pointer over this chart counts, not a cursor synced from another chart of the page.
 */
function switchTooltipPlugin(t: TFunction<"history">, lanes: LiveValue<Lanes>): uPlot.Plugin {
  let tip: HTMLDivElement | null = null;
  let over = false;
  const hide = () => {
    if (tip) tip.hidden = true;
  };
  return {
    hooks: {
      init: [
        (u) => {
          tip = document.createElement("div");
          tip.className = "switch-tooltip pointer-events-none absolute z-10 max-w-[18rem] rounded-md bg-gray-900 px-2 py-1 text-xs 4xl:text-lg text-white shadow-lg";
          tip.hidden = true;
          // The chart's box is left to right; its words run in the page's direction.
          tip.dir = document.documentElement.dir || "ltr";
          u.over.appendChild(tip);
          u.over.addEventListener("mouseenter", () => (over = true));
          u.over.addEventListener("mouseleave", () => {
            over = false;
            hide();
          });
        },
      ],
      setCursor: [
        (u) => {
          const { left, top } = u.cursor;
          if (!tip || !over || left === undefined || top === undefined || left < 0 || top < 0) return hide();
          const laneH = u.over.clientHeight / STATE_TARGETS.length;
          const target = STATE_TARGETS[Math.min(STATE_TARGETS.length - 1, Math.floor(top / laneH))]!;
          const at = u.posToVal(left, "x");
          const change = switchNear(lanes.value[target], at, Math.abs(u.posToVal(left + HOVER_SLACK_PX, "x") - at));
          if (!change) return hide();
          tip.textContent = switchText(t, target, change);
          tip.dataset.target = target;
          tip.hidden = false;
          const x = u.valToPos(change.at, "x");
          const width = tip.offsetWidth;
          tip.style.left = `${Math.max(0, Math.min(u.over.clientWidth - width, x - width / 2))}px`;
          const laneTop = STATE_TARGETS.indexOf(target) * laneH;
          // Above the lane, or below it for the top lane (the chart's own box clips nothing: the tooltip may overhang).
          tip.style.top = `${laneTop > tip.offsetHeight ? laneTop - tip.offsetHeight - 2 : laneTop + laneH + 2}px`;
        },
      ],
    },
  };
}

function timelineOptions(t: TFunction<"history">, lanes: LiveValue<Lanes>, range: XRange, syncKey: string, layout: ChartLayout): uPlot.Options {
  const base = baseOptions(layout, syncKey);
  const [xAxis, yAxis] = base.axes!;
  // Room for a time axis of two lines (a tick naming its day): the lanes keep their height.
  const xAxisSize = Math.round(parseInt(layout.font, 10) * 3.8);
  return {
    ...base,
    width: 0,
    height: STATE_TARGETS.length * layout.laneHeight + xAxisSize,
    legend: { show: false },
    cursor: { ...base.cursor, y: false, points: { show: false } },
    scales: { y: { auto: false, range: [0, 1] } },
    // The y axis draws nothing, but takes the charts' width, so the lanes start where the plots do.
    axes: [{ ...xAxis, grid: { show: false } }, { ...yAxis, values: (_u, splits) => splits.map(() => ""), grid: { show: false }, ticks: { show: false } }],
    series: [{}, { show: false }],
    plugins: [xRangePlugin(range), lanesPlugin(t, lanes, layout), switchTooltipPlugin(t, lanes)],
  };
}

/** A figure of the controllers' on/off states over the range, on the charts' time axis, with each lane in words. */
export function ControllerTimeline({
  load,
  retry,
  range,
  syncKey,
  rangeText,
}: {
  load: Load<LiveValue<Lanes>>;
  retry: () => void;
  range: XRange;
  syncKey: string;
  rangeText: string;
}) {
  const { t } = useTranslation("history");
  if (load.status === "loading")
    return (
      <div role="status" className="card p-4 4xl:p-6">
        <span className="sr-only">{t("timeline.loading")}</span>
        <div aria-hidden="true" className="h-[183px] 4xl:h-[313px] rounded-lg bg-gray-100 animate-pulse" />
      </div>
    );
  if (load.status === "error") return <LoadError text={t("timeline.failed", { reason: load.message })} onRetry={retry} />;
  return <TimelineFigure lanes={load.value} range={range} syncKey={syncKey} rangeText={rangeText} />;
}

function TimelineFigure({ lanes, range, syncKey, rangeText }: { lanes: LiveValue<Lanes>; range: XRange; syncKey: string; rangeText: string }) {
  const { t } = useTranslation("history");
  useLocale();
  const layout = useChartLayout();
  const titleId = useId();
  const version = useSyncExternalStore(lanes.subscribe, lanes.version);
  const options = useMemo(() => timelineOptions(t, lanes, range, syncKey, layout), [t, lanes, range, syncKey, layout]);
  const { hostRef, plotRef } = useUplot(options, () => [[...range.full()], [null, null]]);

  useEffect(() => {
    // A change appended from a reading: repaint the lanes (no path to rebuild).
    if (plotRef.current) framesOf(plotRef.current).redraw();
  }, [version, plotRef]);

  const [from, to] = range.full();
  const summaries = STATE_TARGETS.map((target) => summarizeLane(target, lanes.value[target], from, Math.min(to, Date.now())));
  const changes = STATE_TARGETS.reduce((n, t) => n + lanes.value[t].filter((c) => c.at >= from).length, 0);
  return (
    <figure aria-labelledby={titleId} data-changes={changes} className="card p-3 sm:p-4 4xl:p-6 min-w-0 flex flex-col gap-2 4xl:gap-3">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 id={titleId} className="font-semibold text-gray-900 4xl:text-3xl">
          {t("timeline.title")}
        </h3>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs 4xl:text-xl text-gray-700" aria-label={t("timeline.key")}>
          <li className="flex items-center gap-1.5">
            <span aria-hidden="true" className="inline-block w-4 h-2.5 4xl:w-7 4xl:h-4 rounded-sm" style={{ background: ON }} />
            {t("timeline.on")}
          </li>
          <li className="flex items-center gap-1.5">
            <span aria-hidden="true" className="inline-block w-4 h-2.5 4xl:w-7 4xl:h-4 rounded-sm border border-gray-300" style={{ background: OFF }} />
            {t("timeline.off")}
          </li>
          <li className="flex items-center gap-1.5">
            <span aria-hidden="true" className="inline-block w-4 h-1 4xl:w-7 4xl:h-1.5 rounded-sm" style={{ background: AUTO }} />
            {t("timeline.automationOn")}
          </li>
        </ul>
      </figcaption>
      <div ref={hostRef} dir="ltr" className="history-chart min-w-0" aria-hidden="true" />
      <ul className="grid gap-x-6 gap-y-1 sm:grid-cols-2 text-sm 4xl:text-2xl text-gray-700" aria-label={t("timeline.summaryLabel", { range: rangeText })}>
        {summaries.map((s) => (
          <li
            key={s.target}
            data-target={s.target}
            data-status={s.current ? (s.current.status ? "on" : "off") : "unknown"}
            data-auto={s.current ? (s.current.auto ? "on" : "off") : "unknown"}
            data-changes={lanes.value[s.target].filter((c) => c.at >= from).length}
          >
            {describeLane(t, s)}
          </li>
        ))}
      </ul>
    </figure>
  );
}
