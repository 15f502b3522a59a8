import { memo } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { metricValue, type Alarm, type AlarmMetric, type AlarmState } from "../../../contract/alarms-values.ts";
import type { McuLive } from "../../../contract/live.ts";
import { AlarmCallsToggle } from "../../components/alarm-calls.tsx";
import { mcuHistoryPath } from "../../components/history-link.tsx";
import { useMcuLiveWith } from "../../data/hooks.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { alarmDurationMs, formatAgo, formatDuration } from "./alarm-times.ts";
import { alarmBody, alarmMoment, alarmTitle, alarmValue, kindLabel } from "./alarm-words.ts";
import { useRefusal } from "../../data/farm-roles.ts";

const STATE_LOOKS: Record<AlarmState, string> = {
  open: "bg-red-50 text-red-800 ring-red-200",
  acknowledged: "bg-amber-50 text-amber-900 ring-amber-200",
  resolved: "bg-green-50 text-green-800 ring-green-200",
};
const EDGES: Record<AlarmState, string> = { open: "border-s-red-600", acknowledged: "border-s-amber-500", resolved: "border-s-green-600" };

/** What "Now" shows: the MCU's live value of the alarm's metric, "offline" while it reports nothing, or nothing known yet. */
type LiveValue = { value: number } | "offline" | null;
const sameLiveValue = (a: LiveValue, b: LiveValue) => (a !== null && b !== null && typeof a === "object" && typeof b === "object" ? a.value === b.value : a === b);

/**
 * The value the MCU reports now of what the alarm is about, beside the value the alarm opened
 * with (its words keep that one): it re-renders when that value changes, not at every reading.
 */
function CurrentValue({ mac, metric }: { mac: string; metric: AlarmMetric }) {
  const { t } = useTranslation("alarms");
  useLocale();
  const live = useMcuLiveWith(
    mac,
    (l: McuLive | undefined): LiveValue => {
      if (!l || l.lastReadingAt === null) return null;
      // An old reading says nothing about the room now.
      if (!l.online) return "offline";
      const value = metricValue(l.readings, metric);
      return value === undefined ? null : { value };
    },
    sameLiveValue,
  );
  if (live === null) return <span className="text-gray-600">{t("item.noReadingYet")}</span>;
  if (live === "offline") return <span className="text-gray-600">{t("item.offlineNow")}</span>;
  return <span className="font-semibold">{alarmValue(t, metric, live.value)}</span>;
}

/** The DOM id of an alarm's entry (focus goes back to it after its Acknowledge button is gone). */
export const alarmEntryId = (alarmId: number) => `alarm-${alarmId}`;

/**
 * One alarm: what it is about, where (MCU, with a link to its history, and farm), when it opened
 * and how long it lasted or has lasted, its state in words (colour repeats it), who acknowledged it
 * and what they said, and Acknowledge while nobody has.
 */
export const AlarmItem = memo(function AlarmItem({
  alarm,
  now,
  onAcknowledge,
  selected = false,
}: {
  alarm: Alarm;
  now: number;
  onAcknowledge?: (alarm: Alarm) => void;
  /** The alarm a link (the bell, a push) led to: marked, and announced as current. */
  selected?: boolean;
}) {
  const { t } = useTranslation("alarms");
  // Its words are said in the reader's digits too: a change of digits alone re-renders it.
  useLocale();
  const title = alarmTitle(t, alarm);
  const titleId = `${alarmEntryId(alarm.alarm_id)}-title`;
  const active = alarm.state !== "resolved";
  // A role that may not acknowledge sees the alarm, and why the button is not for them.
  const refusal = useRefusal(alarm.farm_id, "acknowledgeAlarms");
  const refusalId = `${alarmEntryId(alarm.alarm_id)}-refusal`;
  const { metric, worst_value: worst } = alarm;
  return (
    <li>
      <article
        id={alarmEntryId(alarm.alarm_id)}
        tabIndex={-1}
        aria-labelledby={titleId}
        aria-current={selected ? "true" : undefined}
        data-state={alarm.state}
        className={`card h-full p-4 4xl:p-6 border-s-4 ${EDGES[alarm.state]} flex flex-col gap-2 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600/40 ${selected ? "ring-2 ring-brand-600" : ""}`}
      >
        <div className="flex flex-wrap items-center gap-2">
          <span data-state-badge className={`inline-flex rounded-full px-2.5 py-0.5 text-xs 4xl:text-lg font-medium ring-1 ring-inset ${STATE_LOOKS[alarm.state]}`}>
            {t(`states.${alarm.state}`)}
          </span>
          <span className="inline-flex rounded-full bg-gray-100 px-2.5 py-0.5 text-xs 4xl:text-lg font-medium text-gray-800">{kindLabel(t, alarm.kind)}</span>
        </div>
        <h3 id={titleId} className="font-semibold text-gray-900 4xl:text-2xl break-words">
          {title}
        </h3>
        <p className="text-sm 4xl:text-xl text-gray-700 break-words">{alarmBody(t, alarm)}</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm 4xl:text-xl">
          {active && metric !== null && (
            <>
              <dt className="text-gray-600">{t("item.now")}</dt>
              <dd className="text-gray-900 tabular-nums" data-current-value>
                <CurrentValue mac={alarm.mac} metric={metric} />
              </dd>
            </>
          )}
          {metric !== null && worst !== null && (
            <>
              {/* A stuck sensor's value does not get worse: it is the one it is stuck on. */}
              <dt className="text-gray-600">{alarm.kind === "sensor_stuck" ? t("item.stuckAt") : t("item.worst")}</dt>
              <dd className="text-gray-900 tabular-nums" data-worst-value>
                {alarmValue(t, metric, worst)}
              </dd>
            </>
          )}
          <dt className="text-gray-600">{t("item.mcu")}</dt>
          <dd className="min-w-0 break-words">
            <Link to={mcuHistoryPath(alarm.mcu_id)} className="font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900" aria-label={t("item.historyOf", { mcu: alarm.mcu_name })}>
              {alarm.mcu_name}
            </Link>
          </dd>
          <dt className="text-gray-600">{t("item.farm")}</dt>
          <dd className="min-w-0 break-words text-gray-900">{alarm.farm_name ?? t("item.noFarm")}</dd>
          <dt className="text-gray-600">{t("item.opened")}</dt>
          <dd className="text-gray-900">
            <time dateTime={alarm.opened_at}>{alarmMoment(alarm.opened_at)}</time> <span className="text-gray-600">({formatAgo(t, alarm.opened_at, now)})</span>
          </dd>
          {alarm.resolved_at !== null && (
            <>
              <dt className="text-gray-600">{t("item.resolved")}</dt>
              <dd className="text-gray-900">
                <time dateTime={alarm.resolved_at}>{alarmMoment(alarm.resolved_at)}</time>
              </dd>
            </>
          )}
          <dt className="text-gray-600">{t("item.duration")}</dt>
          <dd className="text-gray-900 tabular-nums" data-duration>
            {active ? (
              <Trans t={t} i18nKey="item.durationSoFar" values={{ duration: formatDuration(t, alarmDurationMs(alarm, now)) }} components={{ muted: <span className="text-gray-600" /> }} />
            ) : (
              formatDuration(t, alarmDurationMs(alarm, now))
            )}
          </dd>
        </dl>
        {alarm.acknowledged_at !== null && (
          <div className="rounded-lg bg-amber-50 px-3 py-2 text-sm 4xl:text-xl text-amber-950" data-acknowledgement>
            <p>
              <Trans
                t={t}
                i18nKey="item.acknowledgedBy"
                values={{ name: alarm.acknowledged_by ?? t("item.someone"), at: alarmMoment(alarm.acknowledged_at) }}
                components={{ who: <span className="font-medium" />, when: <time dateTime={alarm.acknowledged_at} /> }}
              />
            </p>
            {alarm.ack_comment && (
              <p className="mt-1 break-words whitespace-pre-line">
                {/* The comment is in the words of whoever wrote it: set apart in its own direction, inside the reader's quotes. */}
                <Trans t={t} i18nKey="item.comment" values={{ comment: alarm.ack_comment }} components={{ words: <bdi /> }} />
              </p>
            )}
          </div>
        )}
        <AlarmCallsToggle alarmId={alarm.alarm_id} />
        {alarm.state === "open" && onAcknowledge && (
          <div className="mt-auto pt-1">
            <button
              type="button"
              className="btn-primary w-full sm:w-auto 4xl:text-xl 4xl:px-6 4xl:py-3 disabled:cursor-not-allowed disabled:opacity-60"
              aria-label={t("item.acknowledgeLabel", { title })}
              disabled={refusal !== null}
              aria-describedby={refusal ? refusalId : undefined}
              onClick={() => onAcknowledge(alarm)}
            >
              {t("item.acknowledge")}
            </button>
            {refusal && (
              <p id={refusalId} className="mt-1 text-sm 4xl:text-lg text-gray-600">
                {refusal}
              </p>
            )}
          </div>
        )}
      </article>
    </li>
  );
});
