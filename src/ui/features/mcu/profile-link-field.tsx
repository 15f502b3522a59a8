import { useId, useState, type CSSProperties } from "react";
import type { McuManagerCardView } from "../../../contract/live.ts";
import { UnlinkIcon } from "../../components/icons.tsx";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { REFUSED_ICON_BUTTON, RefusalNote } from "../../components/refusal-note.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useMcuRefusal } from "../../data/farm-roles.ts";
import { useCollection } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { i18n } from "../../i18n/i18n.ts";
import { useScrollSettled } from "./use-scroll-settled.ts";

/**
 * The field's own arrow, the same on the select and on its stand-in (a native arrow would change
 * as the stand-in turns into the select). It sits at the field's end, which Arabic mirrors: a
 * background position has no logical side, so FIELD_CLASS places it by direction.
 */
const ARROW: CSSProperties = {
  backgroundImage: `url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 20 20' fill='none'%3E%3Cpath d='m6 8 4 4 4-4' stroke='%236b7280' stroke-width='1.5' stroke-linecap='round' stroke-linejoin='round'/%3E%3C/svg%3E")`,
  backgroundRepeat: "no-repeat",
  backgroundSize: "1.25em 1.25em",
};
const FIELD_CLASS =
  "appearance-none min-w-0 flex-1 rounded-lg border border-gray-300 bg-white ps-2 pe-7 py-1.5 4xl:ps-3 4xl:pe-9 4xl:py-2 text-sm 4xl:text-xl text-gray-900 [background-position:right_0.375rem_center] rtl:[background-position:left_0.375rem_center]";

/** The field's words: it is part of a card, which re-renders it on a change of language (`useLocale()`). */
const t = i18n.getFixedT(null, "mcu");

/**
 * SPEC §4 profile linking: choosing a profile links it (the core then asks the device to
 * refresh); the blank option does nothing; unlinking asks first. An MCU has at most one link.
 * A role that may not change profiles sees the link, its select and Unlink off, and why.
 */
export function ProfileLinkField({ mcuId, mcuName, link }: { mcuId: number; mcuName: string; link: McuManagerCardView["profileLink"] }) {
  const { core } = useAppData();
  const confirm = useConfirm();
  const profiles = useCollection("profiles");
  const id = useId();
  const reasonId = useId();
  const refusal = useMcuRefusal(mcuId, "manageProfiles");
  const describedBy = refusal ? reasonId : undefined;
  const [busy, setBusy] = useState(false);
  // A select is the costliest part of a card to create (its options, its inner parts): a card
  // mounted while the list is scrolling shows the choice as text in the same box until the scroll
  // stops, so the cards a fast scroll passes by never make one.
  const selectable = useScrollSettled();
  // The chosen profile shows while its link is on the way, instead of snapping back.
  const [choice, setChoice] = useState<string | null>(null);

  async function choose(value: string) {
    const profileId = Number(value);
    if (!value || profileId === link?.profileId) return;
    setBusy(true);
    setChoice(value);
    try {
      await core.linkProfile(mcuId, profileId);
      notify.success(t("profile.linked"));
    } catch (err) {
      notify.error(messageOf(err, t("profile.linkFailed")));
    } finally {
      setBusy(false);
      setChoice(null);
    }
  }

  async function unlink() {
    if (!link || !(await confirm(t("profile.unlinkConfirm")))) return;
    setBusy(true);
    try {
      await core.unlinkProfile(link.linkId);
      notify.success(t("profile.unlinked"));
    } catch (err) {
      notify.error(messageOf(err, t("profile.unlinkFailed")));
    } finally {
      setBusy(false);
    }
  }

  // A linked profile the list does not hold (profiles failed to load) is still shown by name.
  const listed = link ? profiles.some((p) => p.profile_id === link.profileId) : true;
  return (
    <>
      <dt className="text-gray-500">
        <label htmlFor={id}>
          {t("profile.label")}
          <span className="sr-only"> {t("profile.of", { name: mcuName })}</span>
        </label>
      </dt>
      <dd className="flex items-center gap-1.5 min-w-0">
        {selectable ? (
          <select
            id={id}
            value={choice ?? (link ? String(link.profileId) : "")}
            onChange={(e) => void choose(e.target.value)}
            disabled={busy || refusal !== null}
            aria-describedby={describedBy}
            aria-busy={busy || undefined}
            style={ARROW}
            className={`${FIELD_CLASS} focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 disabled:bg-gray-100`}
          >
            <option value="">{t("profile.select")}</option>
            {!listed && link && <option value={String(link.profileId)}>{link.name}</option>}
            {profiles.map((p) => (
              <option key={p.profile_id} value={String(p.profile_id)}>
                {p.name}
              </option>
            ))}
          </select>
        ) : (
          <span style={ARROW} className={`${FIELD_CLASS} block truncate`}>
            {link ? link.name : t("profile.select")}
          </span>
        )}
        {link && (
          <button
            type="button"
            className={`icon-btn w-10 h-10 4xl:w-12 4xl:h-12 shrink-0 text-red-600 hover:bg-red-50 hover:text-red-700${refusal ? ` ${REFUSED_ICON_BUTTON}` : ""}`}
            aria-label={t("profile.unlinkFrom", { name: mcuName })}
            title={t("profile.unlink")}
            onClick={() => void unlink()}
            disabled={busy || refusal !== null}
            aria-describedby={describedBy}
          >
            <UnlinkIcon className="4xl:text-2xl" />
          </button>
        )}
      </dd>
      {refusal && (
        <dd className="col-start-2 -mt-1.5">
          <RefusalNote id={reasonId} text={refusal} />
        </dd>
      )}
    </>
  );
}
