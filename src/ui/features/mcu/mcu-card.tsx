import { memo, useId } from "react";
import type { LastSeenAgo } from "../../../contract/live.ts";
import { BatchLine } from "../../components/batch-line.tsx";
import { BuiltInSettingsNote } from "../../components/built-in-settings-note.tsx";
import { formatDate } from "../../components/dates.ts";
import { ChartIcon, HistoryLink, mcuHistoryPath } from "../../components/history-link.tsx";
import { EditIcon, TrashIcon } from "../../components/icons.tsx";
import { REFUSED_ICON_BUTTON, RefusalNote } from "../../components/refusal-note.tsx";
import { useMcuRefusal } from "../../data/farm-roles.ts";
import { useMcuManagerCard } from "../../data/hooks.ts";
import { i18n, useLocale } from "../../i18n/i18n.ts";
import { BatteryBar } from "./battery-bar.tsx";
import { ProfileLinkField } from "./profile-link-field.tsx";
import { StatusBadge } from "./status-badge.tsx";

/**
 * The card's words, looked up at each render: a card re-renders on a change of language or digits
 * through its one `useLocale()` (a list of thousands of cards is not given a `useTranslation`
 * subscription each).
 */
const t = i18n.getFixedT(null, "mcu");

/** Last Seen in the reader's words, from the parts the core judged at its clock ("400d ago": a count, ungrouped). */
function lastSeenWords(ago: LastSeenAgo): string {
  if (ago.unit === "now") return t("lastSeen.now");
  if (ago.unit === "minutes") return t("lastSeen.minutes", { count: ago.count });
  if (ago.unit === "hours") return t("lastSeen.hours", { count: ago.count });
  return t("lastSeen.days", { count: ago.count });
}

/**
 * One MCU (SPEC §2). It reads one object, its view, which the core joins (record + live snapshot)
 * and judges (status, battery, Last Seen at the core's clock) and sends again only when what the
 * card shows changed, so a reading that moves nothing shown renders nothing here. Edit and delete
 * are off, with the reason, for a role that may not manage its farm's devices.
 */
export const McuCard = memo(function McuCard({ mcuId, onEdit, onDelete }: { mcuId: number; onEdit: (mcuId: number) => void; onDelete: (mcuId: number) => void }) {
  const view = useMcuManagerCard(mcuId);
  useLocale();
  const titleId = useId();
  const reasonId = useId();
  const refusal = useMcuRefusal(mcuId, "manageDevices");
  const describedBy = refusal ? reasonId : undefined;
  const refused = refusal ? ` ${REFUSED_ICON_BUTTON}` : "";
  // Its view comes from the core within a frame or two of mounting (in the rows mounted ahead of
  // the screen, before it scrolls in); meanwhile a blank card of the usual size holds its place.
  if (!view) return <div aria-hidden="true" className="card w-full min-h-[18.75rem] 4xl:min-h-[26.25rem]" />;
  const { name, lastSeenAt, lastSeenAgo } = view;

  return (
    <article aria-labelledby={titleId} className="card w-full p-4 4xl:p-7 flex flex-col gap-3 4xl:gap-5 min-w-0">
      <header className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <h3 id={titleId} className="font-semibold text-gray-900 text-base 4xl:text-2xl break-words">
              {name}
            </h3>
            <StatusBadge status={view.status} />
          </div>
          <p className="text-xs 4xl:text-base text-gray-500 mt-0.5">{t("card.id", { id: String(mcuId) })}</p>
        </div>
        <div className="flex shrink-0 -me-2 -mt-1">
          <button
            type="button"
            className={`icon-btn w-10 h-10 4xl:w-12 4xl:h-12${refused}`}
            aria-label={t("card.editOf", { name })}
            title={t("card.edit")}
            onClick={() => onEdit(mcuId)}
            disabled={refusal !== null}
            aria-describedby={describedBy}
          >
            <EditIcon className="text-lg 4xl:text-2xl" />
          </button>
          <button
            type="button"
            className={`icon-btn w-10 h-10 4xl:w-12 4xl:h-12 hover:bg-red-50 hover:text-red-700${refused}`}
            aria-label={t("card.deleteOf", { name })}
            title={t("card.delete")}
            onClick={() => onDelete(mcuId)}
            disabled={refusal !== null}
            aria-describedby={describedBy}
          >
            <TrashIcon className="text-lg 4xl:text-2xl" />
          </button>
        </div>
      </header>
      <RefusalNote id={reasonId} text={refusal} className="-mt-1" />

      <dl className="grid grid-cols-[5.5rem_minmax(0,1fr)] 4xl:grid-cols-[9rem_minmax(0,1fr)] items-center gap-x-3 gap-y-2.5 4xl:gap-y-4 text-sm 4xl:text-xl">
        <dt className="text-gray-500">{t("card.farm")}</dt>
        <dd className="text-gray-900 font-medium truncate">{view.farmName}</dd>
        <ProfileLinkField mcuId={mcuId} mcuName={name} link={view.profileLink} />
        {/* A second description of Profile. */}
        {view.profileLink === null && !view.grow && (
          <dd className="col-start-2 -mt-1.5">
            <BuiltInSettingsNote className="text-xs 4xl:text-base text-gray-600" />
          </dd>
        )}
        {view.grow && (
          <>
            <dt className="text-gray-500">{t("card.batch")}</dt>
            <dd>
              <BatchLine grow={view.grow} profileName={view.profileLink?.name ?? null} prefix={false} />
            </dd>
          </>
        )}
        <dt className="text-gray-500">{t("card.mac")}</dt>
        <dd className="font-mono text-gray-900 break-all">{view.mac}</dd>
        <dt className="text-gray-500">{t("card.battery")}</dt>
        <dd>
          <BatteryBar level={view.battery} label={t("card.batteryOf", { name })} />
        </dd>
        <dt className="text-gray-500">{t("card.lastSeen")}</dt>
        <dd className="text-gray-900">
          {lastSeenAt === null || lastSeenAgo === null ? t("lastSeen.never") : <time dateTime={new Date(lastSeenAt).toISOString()}>{lastSeenWords(lastSeenAgo)}</time>}
        </dd>
        <dt className="text-gray-500">{t("card.added")}</dt>
        <dd className="text-gray-900">
          <time dateTime={view.createdAt}>{formatDate(view.createdAt)}</time>
        </dd>
      </dl>
      <HistoryLink
        to={mcuHistoryPath(mcuId)}
        label={t("card.historyOf", { name })}
        className="mt-auto self-start -ms-2 -mb-2 inline-flex min-h-11 items-center gap-1.5 rounded-lg px-2 text-sm 4xl:text-xl font-medium text-brand-700 hover:bg-brand-50 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <ChartIcon /> {t("card.history")}
      </HistoryLink>
    </article>
  );
});
