import { useLayoutEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { Mcu } from "../../../contract/entities.ts";
import type { Batch } from "../../../contract/grow.ts";
import { dateTimeFormat, numberFormat } from "../../i18n/format.ts";
import { useLocale } from "../../i18n/i18n.ts";
import type { PhaseState } from "./batch-plan.ts";
import { batchPath } from "./batch-path.ts";
import { calendarLayout } from "./calendar-layout.ts";
import { deviceTimeZone } from "./zone-dates.ts";

/** A phase's colour: the running one strong, the ended ones muted, the planned ones light. */
const SEGMENT: Record<PhaseState, string> = {
  done: "bg-brand-800/60",
  current: "bg-brand-600",
  planned: "bg-brand-200",
  "not-run": "bg-gray-200",
};
const HELD = "bg-amber-500";
/** Alternating shades, so neighbouring phases of the same state stay apart. */
const SHADE = ["", "opacity-80"];

/**
 * The farm calendar: per farm, its rooms (MCUs) as rows and days as columns, a few weeks back and
 * ahead, scrolled so today shows; each batch a bar split into its phases, a link to the batch.
 * Laid out from the start side, so in Arabic the rooms are on the right and the days run leftwards,
 * as a calendar reads there.
 */
export function FarmCalendar({ batches, mcus, now }: { batches: readonly Batch[]; mcus: readonly Mcu[]; now: number }) {
  const { t } = useTranslation("batches");
  const locale = useLocale();
  const timeZone = useMemo(deviceTimeZone, []);
  // The bars' names are written as laid out: a new language or digits lays it out again.
  const layout = useMemo(() => calendarLayout({ batches, mcus, now, timeZone }), [batches, mcus, now, timeZone, locale]);
  const monthOf = dateTimeFormat({ month: "short", timeZone }, locale.tag);
  const dayNumber = numberFormat({}, locale.tag);
  const scroller = useRef<HTMLDivElement>(null);
  const columns = layout.days.length;

  // Opened with today a little after the rooms' names: the weeks ahead are what is planned.
  // Once: a clock tick must not scroll back what the grower scrolled to. The calendar may first
  // show without rooms (the MCUs still loading): it is placed when they come.
  const placed = useRef(false);
  const empty = layout.farms.length === 0;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || placed.current) return;
    placed.current = true;
    const track = el.scrollWidth - el.querySelector<HTMLElement>("[data-room-column]")!.offsetWidth;
    // Right to left, a box scrolls from 0 at its start (the right) to negative values.
    const towardsEnd = getComputedStyle(el).direction === "rtl" ? -1 : 1;
    el.scrollLeft = towardsEnd * Math.max(0, layout.todayAt * track - 3 * (track / columns));
  }, [layout.todayAt, columns, empty]);

  if (empty) return <p className="text-gray-600">{t("calendar.noMcus")}</p>;

  const trackStyle = { width: `calc(${columns} * var(--day))` };
  const legend: [string, string][] = [
    [SEGMENT.done, t("calendar.legendDone")],
    [SEGMENT.current, t("calendar.legendNow")],
    [SEGMENT.planned, t("calendar.legendPlanned")],
    [HELD, t("calendar.legendHeld")],
    ["border-s-2 border-red-500 !w-0 rounded-none", t("calendar.legendToday")],
  ];
  return (
    <div>
      <div ref={scroller} className="overflow-x-auto rounded-2xl border border-gray-200 bg-white [--day:1.75rem] sm:[--day:2rem] 4xl:[--day:3.5rem]" tabIndex={0} aria-label={t("calendar.scroller")}>
        <div className="min-w-max text-xs 4xl:text-lg">
          {/* The days' heads: the month where one starts, then each day's date. */}
          <div className="flex sticky top-0 bg-white border-b border-gray-200" aria-hidden="true">
            <div data-room-column className="sticky start-0 z-20 w-32 sm:w-44 4xl:w-80 shrink-0 bg-white" />
            <div className="relative flex" style={trackStyle}>
              {layout.days.map((d) => (
                <div key={d.start} className={`w-[var(--day)] shrink-0 text-center py-1 ${d.today ? "bg-brand-700 text-white font-semibold rounded" : "text-gray-600"}`}>
                  <div className="h-4 4xl:h-7 text-[0.65rem] 4xl:text-base font-semibold uppercase text-gray-500 whitespace-nowrap text-start">{d.monthStart ? monthOf.format(d.start) : ""}</div>
                  {dayNumber.format(d.date)}
                </div>
              ))}
            </div>
          </div>

          {layout.farms.map((farm) => (
            <section key={farm.farmId} aria-label={t("calendar.farm", { name: farm.name })}>
              <h3 className="sticky start-0 w-max px-3 pt-3 pb-1 text-sm 4xl:text-2xl font-semibold text-gray-900">
                <bdi>{farm.name}</bdi>
              </h3>
              <ul>
                {farm.rows.map((row) => (
                  <li key={row.mcuId} className="flex border-t border-gray-100">
                    {/* Each name in its own direction: an English name in Arabic is cut at its end, not its start. */}
                    <div className="sticky start-0 z-20 w-32 sm:w-44 4xl:w-80 shrink-0 bg-white px-3 py-2 text-gray-800 text-sm 4xl:text-xl" title={row.name}>
                      <span dir="auto" className="inline-block max-w-full truncate align-top">
                        {row.name}
                      </span>
                    </div>
                    <div className="relative h-11 4xl:h-16" style={trackStyle}>
                      {/* Week lines and today's line, behind the bars. */}
                      {layout.days.map((d, i) =>
                        new Date(d.start).getDay() === 1 ? <div key={d.start} aria-hidden="true" className="absolute inset-y-0 border-s border-gray-100" style={{ insetInlineStart: `${(i / columns) * 100}%` }} /> : null,
                      )}
                      <div aria-hidden="true" className="absolute inset-y-0 z-10 border-s-2 border-red-500" style={{ insetInlineStart: `${layout.todayAt * 100}%` }} />
                      {row.bars.map((bar) => {
                        const held = bar.batch.held_since !== null;
                        return (
                          <Link
                            key={bar.batch.batch_id}
                            to={batchPath(bar.batch.batch_id)}
                            aria-label={bar.label}
                            title={bar.label}
                            className="absolute top-1.5 bottom-1.5 4xl:top-2 4xl:bottom-2 flex overflow-hidden rounded-md ring-1 ring-black/10 hover:ring-2 hover:ring-brand-800 focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-brand-800"
                            style={{ insetInlineStart: `${bar.left * 100}%`, width: `${bar.width * 100}%` }}
                          >
                            {bar.segments.map((s, i) => (
                              <span
                                key={i}
                                className={`absolute inset-y-0 ${held && s.state === "current" ? HELD : SEGMENT[s.state]} ${SHADE[i % 2]} border-e border-white/70`}
                                style={{ insetInlineStart: `${s.left * 100}%`, width: `${s.width * 100}%` }}
                              />
                            ))}
                            {/* From today on where the bar spans it: the calendar opens there, and a bar's start may be scrolled away. */}
                            <span className="relative z-10 self-center min-w-0 overflow-hidden px-1.5 font-medium text-gray-900 [text-shadow:0_0_3px_white]" style={{ marginInlineStart: `${Math.max(0, Math.min(0.8, (layout.todayAt - bar.left) / bar.width)) * 100}%` }}>
                              <span dir="auto" className="block truncate">
                                {bar.batch.name}
                              </span>
                            </span>
                          </Link>
                        );
                      })}
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      </div>
      <ul aria-label={t("calendar.legend")} className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs 4xl:text-lg text-gray-600">
        {legend.map(([cls, text]) => (
          <li key={cls} className="flex items-center gap-1.5">
            <span aria-hidden="true" className={`inline-block h-3 w-5 4xl:h-5 4xl:w-8 rounded-sm ${cls}`} />
            {text}
          </li>
        ))}
      </ul>
    </div>
  );
}
