import { useLayoutEffect, useMemo, useRef } from "react";
import { Link } from "react-router-dom";
import type { Mcu } from "../../../contract/entities.ts";
import type { Batch } from "../../../contract/grow.ts";
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

const monthOf = new Intl.DateTimeFormat(undefined, { month: "short" });

/**
 * The farm calendar: per farm, its rooms (MCUs) as rows and days as columns, a few weeks back and
 * ahead, scrolled so today shows; each batch a bar split into its phases, a link to the batch.
 */
export function FarmCalendar({ batches, mcus, now }: { batches: readonly Batch[]; mcus: readonly Mcu[]; now: number }) {
  const layout = useMemo(() => calendarLayout({ batches, mcus, now, timeZone: deviceTimeZone() }), [batches, mcus, now]);
  const scroller = useRef<HTMLDivElement>(null);
  const columns = layout.days.length;

  // Opened with today a little right of the rooms' names: the weeks ahead are what is planned.
  // Once: a clock tick must not scroll back what the grower scrolled to.
  const placed = useRef(false);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || placed.current) return;
    placed.current = true;
    const track = el.scrollWidth - el.querySelector<HTMLElement>("[data-room-column]")!.offsetWidth;
    el.scrollLeft = Math.max(0, layout.todayAt * track - 3 * (track / columns));
  }, [layout.todayAt, columns]);

  if (layout.farms.length === 0) return <p className="text-gray-600">No MCUs yet: a batch runs in a room an MCU watches.</p>;

  const trackStyle = { width: `calc(${columns} * var(--day))` };
  return (
    <div>
      <div ref={scroller} className="overflow-x-auto rounded-2xl border border-gray-200 bg-white [--day:1.75rem] sm:[--day:2rem] 4xl:[--day:3.5rem]" tabIndex={0} aria-label="Farm calendar, scrolls sideways">
        <div className="min-w-max text-xs 4xl:text-lg">
          {/* The days' heads: the month where one starts, then each day's date. */}
          <div className="flex sticky top-0 bg-white border-b border-gray-200" aria-hidden="true">
            <div data-room-column className="sticky left-0 z-20 w-32 sm:w-44 4xl:w-80 shrink-0 bg-white" />
            <div className="relative flex" style={trackStyle}>
              {layout.days.map((d) => (
                <div key={d.start} className={`w-[var(--day)] shrink-0 text-center py-1 ${d.today ? "bg-brand-700 text-white font-semibold rounded" : "text-gray-600"}`}>
                  <div className="h-4 4xl:h-7 text-[0.65rem] 4xl:text-base font-semibold uppercase text-gray-500">{d.monthStart ? monthOf.format(d.start) : ""}</div>
                  {d.date}
                </div>
              ))}
            </div>
          </div>

          {layout.farms.map((farm) => (
            <section key={farm.farmId} aria-label={`Farm ${farm.name}`}>
              <h3 className="sticky left-0 w-max px-3 pt-3 pb-1 text-sm 4xl:text-2xl font-semibold text-gray-900">{farm.name}</h3>
              <ul>
                {farm.rows.map((row) => (
                  <li key={row.mcuId} className="flex border-t border-gray-100">
                    <div className="sticky left-0 z-20 w-32 sm:w-44 4xl:w-80 shrink-0 bg-white px-3 py-2 text-gray-800 truncate text-sm 4xl:text-xl" title={row.name}>
                      {row.name}
                    </div>
                    <div className="relative h-11 4xl:h-16" style={trackStyle}>
                      {/* Week lines and today's line, behind the bars. */}
                      {layout.days.map((d, i) =>
                        new Date(d.start).getDay() === 1 ? <div key={d.start} aria-hidden="true" className="absolute inset-y-0 border-l border-gray-100" style={{ left: `${(i / columns) * 100}%` }} /> : null,
                      )}
                      <div aria-hidden="true" className="absolute inset-y-0 z-10 border-l-2 border-red-500" style={{ left: `${layout.todayAt * 100}%` }} />
                      {row.bars.map((bar) => {
                        const held = bar.batch.held_since !== null;
                        return (
                          <Link
                            key={bar.batch.batch_id}
                            to={batchPath(bar.batch.batch_id)}
                            aria-label={bar.label}
                            title={bar.label}
                            className="absolute top-1.5 bottom-1.5 4xl:top-2 4xl:bottom-2 flex overflow-hidden rounded-md ring-1 ring-black/10 hover:ring-2 hover:ring-brand-800 focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-brand-800"
                            style={{ left: `${bar.left * 100}%`, width: `${bar.width * 100}%` }}
                          >
                            {bar.segments.map((s, i) => (
                              <span
                                key={i}
                                className={`absolute inset-y-0 ${held && s.state === "current" ? HELD : SEGMENT[s.state]} ${SHADE[i % 2]} border-r border-white/70`}
                                style={{ left: `${s.left * 100}%`, width: `${s.width * 100}%` }}
                              />
                            ))}
                            {/* From today on where the bar spans it: the calendar opens there, and a bar's start may be scrolled away. */}
                            <span className="relative z-10 self-center truncate px-1.5 font-medium text-gray-900 [text-shadow:0_0_3px_white]" style={{ marginLeft: `${Math.max(0, Math.min(0.8, (layout.todayAt - bar.left) / bar.width)) * 100}%` }}>
                              {bar.batch.name}
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
      <ul aria-label="Legend" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs 4xl:text-lg text-gray-600">
        {LEGEND.map(([cls, text]) => (
          <li key={text} className="flex items-center gap-1.5">
            <span aria-hidden="true" className={`inline-block h-3 w-5 4xl:h-5 4xl:w-8 rounded-sm ${cls}`} />
            {text}
          </li>
        ))}
      </ul>
    </div>
  );
}

const LEGEND: [string, string][] = [
  [SEGMENT.done, "Phase done"],
  [SEGMENT.current, "Phase now"],
  [SEGMENT.planned, "Phase planned"],
  [HELD, "On hold"],
  ["border-l-2 border-red-500 !w-0 rounded-none", "Today"],
];
