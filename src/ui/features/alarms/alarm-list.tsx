import { Disclosure, DisclosureButton, DisclosurePanel } from "@headlessui/react";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { groupIncidents } from "../../../contract/alarms-groups.ts";
import type { Alarm, AlarmState } from "../../../contract/alarms-values.ts";
import { formatFixed } from "../../i18n/format.ts";
import { currentLocale, useLocale } from "../../i18n/i18n.ts";
import { mcuHistoryPath } from "../../components/history-link.tsx";
import { AlarmItem } from "./alarm-item.tsx";
import { formatAgo } from "./alarm-times.ts";
import { alarmMoment, kindLabel } from "./alarm-words.ts";

// Each entry as tall as itself, not as its row: a neighbour acknowledged elsewhere (taller with who
// and why) would otherwise move the Acknowledge button of the entry beside it.
const LIST_CLASS = "grid grid-cols-1 xl:grid-cols-2 3xl:grid-cols-3 items-start gap-3 sm:gap-4 4xl:gap-6";
const EDGES: Record<AlarmState, string> = { open: "border-s-red-600", acknowledged: "border-s-amber-500", resolved: "border-s-green-600" };

/** The heading of an incident: "Tunnel 1: 3 alarms". */
export const incidentTitle = (t: TFunction<"alarms">, mcuName: string, count: number) => t("incident.title", { mcu: mcuName, count });

/** How close together an incident's alarms opened: "opened together", "opened within 3 min". */
function togetherWords(t: TFunction<"alarms">, newest: string, oldest: string): string {
  const minutes = Math.ceil((Date.parse(newest) - Date.parse(oldest)) / 60_000);
  return minutes < 1 ? t("incident.openedTogether") : t("incident.openedWithin", { minutes: formatFixed(minutes, 0) });
}

/** A list of short items as the reader's language joins them ("a, b, c"). */
const lists = new Map<string, Intl.ListFormat>();
function joined(items: readonly string[]): string {
  const { tag } = currentLocale();
  let f = lists.get(tag);
  if (!f) lists.set(tag, (f = new Intl.ListFormat(tag, { type: "unit", style: "short" })));
  return f.format(items);
}

/** How many of an incident's alarms are in each state, in words: "2 open, 1 acknowledged". */
function stateCounts(t: TFunction<"alarms">, alarms: readonly Alarm[]): string {
  const counts = new Map<AlarmState, number>();
  for (const a of alarms) counts.set(a.state, (counts.get(a.state) ?? 0) + 1);
  return joined(
    (["open", "acknowledged", "resolved"] as const)
      .filter((s) => counts.has(s))
      .map((s) => {
        const count = counts.get(s)!;
        return t(`incident.counts.${s}`, { count });
      }),
  );
}

/**
 * Several alarms of one MCU that opened together (an open door): one entry naming them, that
 * expands to the alarms themselves, each as it is alone. It starts open when it holds the alarm a
 * link led to.
 */
function IncidentItem({ alarms, now, onAcknowledge, selectedId }: { alarms: readonly Alarm[]; now: number; onAcknowledge?: (alarm: Alarm) => void; selectedId: number | null }) {
  const newest = alarms[0]!;
  const oldest = alarms[alarms.length - 1]!;
  const { t } = useTranslation("alarms");
  useLocale();
  const headingId = `incident-${oldest.alarm_id}-title`;
  const title = incidentTitle(t, newest.mcu_name, alarms.length);
  const count = { count: alarms.length };
  // The entry's edge says its most urgent state.
  const state: AlarmState = alarms.some((a) => a.state === "open") ? "open" : alarms.some((a) => a.state === "acknowledged") ? "acknowledged" : "resolved";
  const holdsSelected = selectedId !== null && alarms.some((a) => a.alarm_id === selectedId);
  return (
    // Expanded, it takes a whole row of the grid: its alarms are laid out as the list's.
    <Disclosure as="li" defaultOpen={holdsSelected} className={({ open }: { open: boolean }) => (open ? "col-span-full" : "")}>
      {({ open }) => (
        <section aria-labelledby={headingId} data-incident data-state={state} className={`card p-4 4xl:p-6 border-s-4 ${EDGES[state]} flex flex-col gap-2`}>
          <div className="flex flex-wrap items-center gap-2">
            <span className="inline-flex rounded-full bg-gray-900 px-2.5 py-0.5 text-xs 4xl:text-lg font-medium text-white">{stateCounts(t, alarms)}</span>
          </div>
          <h3 id={headingId} className="font-semibold text-gray-900 4xl:text-2xl break-words">
            {title}
          </h3>
          <p className="text-sm 4xl:text-xl text-gray-700 break-words" data-incident-kinds>
            {t("incident.kinds", { kinds: joined(alarms.map((a) => kindLabel(t, a.kind))), together: togetherWords(t, newest.opened_at, oldest.opened_at) })}
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm 4xl:text-xl">
            <dt className="text-gray-600">{t("item.mcu")}</dt>
            <dd className="min-w-0 break-words">
              <Link to={mcuHistoryPath(newest.mcu_id)} className="font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900" aria-label={t("item.historyOf", { mcu: newest.mcu_name })}>
                {newest.mcu_name}
              </Link>
            </dd>
            <dt className="text-gray-600">{t("item.farm")}</dt>
            <dd className="min-w-0 break-words text-gray-900">{newest.farm_name ?? t("item.noFarm")}</dd>
            <dt className="text-gray-600">{t("item.opened")}</dt>
            <dd className="text-gray-900">
              <time dateTime={oldest.opened_at}>{alarmMoment(oldest.opened_at)}</time> <span className="text-gray-600">({formatAgo(t, oldest.opened_at, now)})</span>
            </dd>
          </dl>
          <DisclosureButton className="btn-secondary self-start 4xl:text-xl 4xl:px-6 4xl:py-3">{open ? t("incident.hide", count) : t("incident.show", count)}</DisclosureButton>
          <DisclosurePanel as="ul" className={`${LIST_CLASS} mt-2`} aria-label={t("incident.listLabel", { title })}>
            {alarms.map((a) => (
              <AlarmItem key={a.alarm_id} alarm={a} now={now} onAcknowledge={onAcknowledge} selected={a.alarm_id === selectedId} />
            ))}
          </DisclosurePanel>
        </section>
      )}
    </Disclosure>
  );
}

/**
 * A list of alarms (newest first), those of one MCU that opened within a few minutes of each other
 * as one incident that expands (the alarms themselves stay apart: each is acknowledged and
 * resolves on its own).
 */
export function AlarmList({
  alarms,
  label,
  now,
  onAcknowledge,
  selectedId = null,
}: {
  alarms: readonly Alarm[];
  label: string;
  now: number;
  onAcknowledge?: (alarm: Alarm) => void;
  selectedId?: number | null;
}) {
  const groups = useMemo(() => groupIncidents(alarms, (a) => ({ mcuId: a.mcu_id, at: a.opened_at })), [alarms]);
  return (
    <ul className={LIST_CLASS} aria-label={label}>
      {groups.map((g) =>
        g.entries.length === 1 ? (
          <AlarmItem key={g.entries[0]!.alarm_id} alarm={g.entries[0]!} now={now} onAcknowledge={onAcknowledge} selected={g.entries[0]!.alarm_id === selectedId} />
        ) : (
          // Keyed by its oldest alarm: a newer one joining keeps the entry (and whether it is expanded).
          <IncidentItem key={`incident-${g.entries[g.entries.length - 1]!.alarm_id}`} alarms={g.entries} now={now} onAcknowledge={onAcknowledge} selectedId={selectedId} />
        ),
      )}
    </ul>
  );
}
