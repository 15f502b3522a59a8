import type { TFunction } from "i18next";
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { CoreError } from "../../../contract/core-error.ts";
import type { Farm } from "../../../contract/entities.ts";
import { onCallAt, ROTA_LIMITS } from "../../../contract/rota-values.ts";
import type { Rota } from "../../../contract/rota.ts";
import type { Member } from "../../../contract/team.ts";
import { STEP_KEYS } from "../../components/alarm-calls.tsx";
import { ArrowUpIcon, PlusIcon, TrashIcon } from "../../components/icons.tsx";
import { LoadError, Loading } from "../../components/states.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useNow } from "../../components/use-now.ts";
import { useFarmMembers } from "../../data/farm-members.ts";
import { roleLabel, useRefusal } from "../../data/farm-roles.ts";
import { useAppData } from "../../data/provider.tsx";
import { dateTimeFormat, formatFixed } from "../../i18n/format.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { controlClass, touch } from "./controls.tsx";
import { FarmTeamFrame } from "./farm-team-frame.tsx";
import { draftOf, endsNextDay, errorsOfRefusal, moveShift, newShift, requestOf, type RotaDraft, type RotaErrors, type ShiftDraft } from "./rota-draft.ts";
import { useTeamLoad } from "./use-team-load.ts";

/** Farm teams: who is on call when, and how an alarm goes on to others until someone acknowledges it. */
export default function RotaPage() {
  return (
    <FarmTeamFrame screen="rota">
      {(farm) => <RotaScreen farm={farm} />}
    </FarmTeamFrame>
  );
}

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** Every IANA zone the browser knows, with `current` among them; null where it cannot list them (a text field then). */
function timeZones(current: string): string[] | null {
  const supported = (Intl as { supportedValuesOf?: (key: "timeZone") => string[] }).supportedValuesOf?.("timeZone");
  if (!supported) return null;
  return supported.includes(current) ? supported : [current, ...supported];
}

/** The week as the chips show it, Monday first. */
const WEEK = [1, 2, 3, 4, 5, 6, 0] as const;

/** A weekday's name (0 = Sunday) in the reader's language, whole ("Saturday") or short ("Sat"): 1 January 2023 was a Sunday. */
const weekdayName = (day: number, weekday: "long" | "short" | "narrow") => dateTimeFormat({ weekday, timeZone: "UTC" }).format(Date.UTC(2023, 0, 1 + day));

/**
 * A day's chip: its short name ("Mon", "lun."). Where a language's short names are whole words
 * (Arabic's "الأربعاء"), seven of them do not fit a phone's row: there the chip shows the letter
 * calendars use ("ر"), and the short name from a wider screen up. Its whole name is its label.
 */
function DayChipText({ day }: { day: number }) {
  const short = weekdayName(day, "short");
  const wordy = WEEK.some((d) => weekdayName(d, "short").length > 4);
  if (!wordy) return <>{short}</>;
  return (
    <>
      <span className="sm:hidden">{weekdayName(day, "narrow")}</span>
      <span className="hidden sm:inline">{short}</span>
    </>
  );
}

/** Minutes as typed, in the reader's digits when they are a whole number; "…" while the field is empty. */
const typedMinutes = (t: TFunction<"team">, typed: string) => (/^\s*\d+\s*$/.test(typed) ? formatFixed(Number(typed), 0) : typed || t("rota.unset"));

/** A member's name, or "Member 12" for someone the screen no longer lists. */
const nameOf = (t: TFunction<"team">, names: ReadonlyMap<number, string>, id: number) => names.get(id) ?? t("rota.member", { id });

/** The draft without its rows' keys, to tell whether anything was changed. */
const contentOf = (d: RotaDraft) => JSON.stringify({ ...d, shifts: d.shifts.map(({ key: _key, ...s }) => s) });

function RotaScreen({ farm }: { farm: Farm }) {
  const { t } = useTranslation("team");
  const { core } = useAppData();
  const farmId = farm.farm_id;
  const rota = useTeamLoad(useCallback(() => core.farmRota(farmId), [core, farmId]), `rota-${farmId}`);
  // Kept current by the core while on screen: someone invited, removed or given another role elsewhere shows at once.
  const members = useFarmMembers(farmId);
  const list = members.state.status === "ready" ? members.state.value : null;
  // The server takes whoever can no longer be called (removed, left, made a Viewer) off the rota
  // as it changes the members: the saved rota is asked again, or it would still name them on call.
  const { refresh } = rota;
  const listed = useRef<readonly Member[] | null>(null);
  useEffect(() => {
    if (list === null) return;
    if (listed.current !== null && listed.current !== list) refresh();
    listed.current = list;
  }, [list, refresh]);

  if (rota.state.status === "loading" || members.state.status === "loading") return <Loading text={t("rota.loading")} />;
  if (rota.state.status === "error") return <LoadError text={t("rota.loadFailed", { reason: rota.state.message })} onRetry={rota.retry} />;
  if (members.state.status === "error") return <LoadError text={t("members.loadFailed", { reason: members.state.message })} onRetry={members.retry} />;
  return <RotaForm farmId={farmId} saved={rota.state.value} members={members.state.value} onSaved={(r) => rota.set(() => r)} />;
}

/** "On call now: ana (backup: sami)", from the saved rota: who an alarm would reach at this minute. */
function OnCallNow({ rota, names }: { rota: Rota; names: ReadonlyMap<number, string> }) {
  const { t } = useTranslation("team");
  const now = useNow();
  const [first, backup] = onCallAt(rota, now);
  return (
    <p role="status" data-on-call className="card px-4 py-3 4xl:px-6 4xl:py-5 text-base 4xl:text-2xl text-gray-900">
      {first === undefined ? (
        <>
          {/* A rota with shifts calls the farm's managers and owners outside them (the escalation's last step); only a farm without one is told as before. */}
          <span className="font-semibold">{t("rota.nobody")}</span> <span className="text-gray-600">{rota.shifts.length > 0 ? t("rota.nobodyOnShift") : t("rota.nobodyText")}</span>
        </>
      ) : (
        <>
          <span className="font-semibold">{t("rota.onCallNow", { name: nameOf(t, names, first) })}</span>{" "}
          {backup !== undefined ? <span className="text-gray-700">{t("rota.backup", { name: nameOf(t, names, backup) })}</span> : <span className="text-gray-600">{t("rota.noBackup")}</span>}
        </>
      )}
    </p>
  );
}

function RotaForm({ farmId, saved, members, onSaved }: { farmId: number; saved: Rota; members: readonly Member[]; onSaved: (rota: Rota) => void }) {
  const { t } = useTranslation("team");
  // Numbers and dates in the reader's digits: rendered again when only the digits change.
  useLocale();
  const { core } = useAppData();
  const refusal = useRefusal(farmId, "editRota");
  const [draft, setDraft] = useState<RotaDraft>(() => draftOf(saved, browserTimeZone()));
  /** What the form held when last loaded or saved: Save waits for a change to it. */
  const [base, setBase] = useState(() => contentOf(draft));
  const [errors, setErrors] = useState<RotaErrors>({});
  const [saving, setSaving] = useState(false);
  const ids = { zone: useId(), repeat: useId(), escalate: useId() };
  const zones = useMemo(() => timeZones(draft.time_zone), [draft.time_zone]);
  // Everyone listed since the screen opened: a person removed meanwhile is still named where the edit chose them.
  const everListed = useRef(new Map<number, string>());
  const names = useMemo(() => {
    for (const m of members) everListed.current.set(m.client_id, m.username);
    return new Map(everListed.current);
  }, [members]);
  // Only people who can act on an alarm are on call: not Viewers.
  const callable = useMemo(() => members.filter((m) => m.role !== "viewer"), [members]);
  const changed = contentOf(draft) !== base;
  const readOnly = refusal !== null;

  // The saved rota asked again (the members changed, the page came back into view): a form nobody
  // has touched follows it (a person the server took off the rota leaves it); an edit under way is
  // kept, and its shifts say who can no longer be on call.
  const [shownSaved, setShownSaved] = useState(saved);
  if (shownSaved !== saved) {
    setShownSaved(saved);
    const next = draftOf(saved, browserTimeZone());
    if (!changed && contentOf(next) !== base) {
      setDraft(next);
      setBase(contentOf(next));
    }
  }

  const setShift = (index: number, part: Partial<ShiftDraft>) => setDraft((d) => ({ ...d, shifts: d.shifts.map((s, i) => (i === index ? { ...s, ...part } : s)) }));

  async function save(event: FormEvent) {
    event.preventDefault();
    if (saving || readOnly) return;
    const made = requestOf(t, draft);
    if ("errors" in made) return setErrors(made.errors);
    setSaving(true);
    setErrors({});
    try {
      const rota = await core.saveFarmRota(farmId, made.request);
      onSaved(rota);
      const next = draftOf(rota, browserTimeZone());
      setDraft(next);
      setBase(contentOf(next));
      notify.success(t("rota.saved"));
    } catch (err) {
      notify.error(t("rota.notSaved"));
      setErrors(errorsOfRefusal(err instanceof CoreError ? err.fieldErrors : [], messageOf(err, t("rota.saveFailed"))));
    } finally {
      setSaving(false);
    }
  }

  const fieldError = (name: string) =>
    errors[name] ? (
      <p id={`${ids.zone}-${name}`} role="alert" className="mt-1 text-sm 4xl:text-lg text-red-600">
        {errors[name]}
      </p>
    ) : null;
  const describedBy = (name: string) => (errors[name] ? `${ids.zone}-${name}` : undefined);
  const label = "block text-sm 4xl:text-xl font-medium text-gray-700 mb-1";

  return (
    <form onSubmit={save} noValidate aria-label={t("rota.formLabel")} className="space-y-5 4xl:space-y-8">
      <OnCallNow rota={saved} names={names} />
      {readOnly && <p className="rounded-xl border border-gray-200 bg-gray-50 px-4 py-3 text-sm 4xl:text-xl text-gray-700">{t("refusedManagerCan", { refusal })}</p>}

      <fieldset disabled={readOnly} className="space-y-5 4xl:space-y-8 min-w-0">
        <section aria-labelledby="calling-heading" className="card p-4 sm:p-5 4xl:p-8 space-y-4">
          <h3 id="calling-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
            {t("rota.callingHeading")}
          </h3>
          <div className="grid gap-4 sm:grid-cols-3">
            <div>
              <label htmlFor={ids.zone} className={label}>
                {t("rota.timeZone")}
              </label>
              {zones ? (
                <select id={ids.zone} className={controlClass(Boolean(errors.time_zone))} value={draft.time_zone} onChange={(e) => setDraft((d) => ({ ...d, time_zone: e.target.value }))} aria-describedby={describedBy("time_zone")}>
                  {zones.map((z) => (
                    <option key={z} value={z}>
                      {z.replace(/_/g, " ")}
                    </option>
                  ))}
                </select>
              ) : (
                <input id={ids.zone} className={controlClass(Boolean(errors.time_zone))} value={draft.time_zone} onChange={(e) => setDraft((d) => ({ ...d, time_zone: e.target.value }))} aria-describedby={describedBy("time_zone")} />
              )}
              {fieldError("time_zone")}
            </div>
            <div>
              <label htmlFor={ids.repeat} className={label}>
                {t("rota.repeat")}
              </label>
              <input
                id={ids.repeat}
                type="number"
                inputMode="numeric"
                min={ROTA_LIMITS.repeat.min}
                max={ROTA_LIMITS.repeat.max}
                className={controlClass(Boolean(errors.repeat_minutes))}
                value={draft.repeat}
                onChange={(e) => setDraft((d) => ({ ...d, repeat: e.target.value }))}
                aria-invalid={errors.repeat_minutes ? true : undefined}
                aria-describedby={describedBy("repeat_minutes")}
              />
              {fieldError("repeat_minutes")}
            </div>
            <div>
              <label htmlFor={ids.escalate} className={label}>
                {t("rota.escalate")}
              </label>
              <input
                id={ids.escalate}
                type="number"
                inputMode="numeric"
                min={ROTA_LIMITS.escalate.min}
                max={ROTA_LIMITS.escalate.max}
                className={controlClass(Boolean(errors.escalate_minutes))}
                value={draft.escalate}
                onChange={(e) => setDraft((d) => ({ ...d, escalate: e.target.value }))}
                aria-invalid={errors.escalate_minutes ? true : undefined}
                aria-describedby={describedBy("escalate_minutes")}
              />
              {fieldError("escalate_minutes")}
            </div>
          </div>
          <p className="text-sm 4xl:text-xl text-gray-600">
            {t("rota.explain", {
              repeat: typedMinutes(t, draft.repeat),
              escalate: typedMinutes(t, draft.escalate),
              // The steps after the first, as the contract orders them.
              steps: STEP_KEYS.slice(1)
                .map((k) => t(`steps.${k}`))
                .join(t("rota.then")),
            })}
          </p>
        </section>

        <section aria-labelledby="shifts-heading" className="space-y-3 4xl:space-y-5">
          <div>
            <h3 id="shifts-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
              {t("rota.shifts")}
            </h3>
            <p className="text-sm 4xl:text-xl text-gray-600">{t("rota.shiftsText")}</p>
          </div>
          {fieldError("shifts")}
          {draft.shifts.length === 0 ? (
            <p className="rounded-2xl border-2 border-dashed border-gray-200 bg-white px-4 py-8 text-center text-gray-600 4xl:text-xl">{readOnly ? t("rota.noShiftsReadOnly") : t("rota.noShifts")}</p>
          ) : (
            <ol className="grid gap-3 4xl:gap-5 xl:grid-cols-2" aria-label={t("rota.shifts")}>
              {draft.shifts.map((shift, index) => (
                <ShiftCard
                  key={shift.key}
                  shift={shift}
                  index={index}
                  count={draft.shifts.length}
                  members={members}
                  callable={callable}
                  names={names}
                  errors={errors}
                  onChange={(part) => setShift(index, part)}
                  onMove={(by) => setDraft((d) => moveShift(d, index, by))}
                  onRemove={() => setDraft((d) => ({ ...d, shifts: d.shifts.filter((_, i) => i !== index) }))}
                />
              ))}
            </ol>
          )}
          {!readOnly && (
            <button type="button" className={`btn-secondary w-full sm:w-auto ${touch}`} disabled={draft.shifts.length >= ROTA_LIMITS.shifts} onClick={() => setDraft((d) => ({ ...d, shifts: [...d.shifts, newShift()] }))}>
              <PlusIcon /> {t("rota.addShift")}
            </button>
          )}
        </section>
      </fieldset>

      {!readOnly && (
        <div className="sticky bottom-0 -mx-4 sm:mx-0 flex flex-col sm:flex-row sm:items-center sm:justify-end gap-3 border-t sm:border-0 border-gray-200 bg-gray-50/95 sm:bg-transparent px-4 py-3 sm:p-0">
          {errors.form && (
            <p role="alert" className="sm:me-auto rounded-lg bg-red-50 px-3 py-2 text-sm 4xl:text-xl text-red-800">
              {errors.form}
            </p>
          )}
          <button type="submit" className={`btn-primary ${touch}`} disabled={saving || !changed} aria-busy={saving}>
            {saving ? t("rota.saving") : t("rota.save")}
          </button>
        </div>
      )}
    </form>
  );
}

function ShiftCard({
  shift,
  index,
  count,
  members,
  callable,
  names,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  shift: ShiftDraft;
  index: number;
  count: number;
  members: readonly Member[];
  callable: readonly Member[];
  names: ReadonlyMap<number, string>;
  errors: RotaErrors;
  onChange: (part: Partial<ShiftDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation("team");
  useLocale();
  const base = `shift-${shift.key}`;
  const path = (f: string) => `shifts.${index}.${f}`;
  const err = (f: string) => errors[path(f)];
  const errId = (f: string) => `${base}-${f}-error`;
  const errorText = (f: string) =>
    err(f) ? (
      <p id={errId(f)} role="alert" className="mt-1 text-sm 4xl:text-lg text-red-600">
        {err(f)}
      </p>
    ) : null;
  const title = t("rota.shift", { n: formatFixed(index + 1, 0) });
  const person = shift.client_id;
  // Someone no longer callable (now a Viewer, or gone) stays shown and is said so, so the edit is
  // not saved with a person silently dropped, nor refused without a word why.
  const outsider = person !== null && !callable.some((m) => m.client_id === person);
  const stillMember = outsider ? members.find((m) => m.client_id === person) : undefined;
  const outsiderName = outsider ? nameOf(t, names, person) : "";
  const outsiderNote =
    !outsider || err("client_id")
      ? null
      : stillMember
        ? t("rota.notCallableNote", { name: outsiderName, role: roleLabel(t, stillMember.role) })
        : t("rota.notMemberNote", { name: outsiderName });
  const toggleDay = (day: number) => onChange({ days: shift.days.includes(day) ? shift.days.filter((d) => d !== day) : [...shift.days, day].sort((a, b) => a - b) });
  const label = "block text-sm 4xl:text-xl font-medium text-gray-700 mb-1";

  return (
    <li className="card p-4 4xl:p-6 space-y-4" aria-label={title}>
      <div className="flex items-center justify-between gap-2">
        <h4 className="font-semibold text-gray-900 4xl:text-2xl">
          {title}
          {index === 0 && <span className="ms-2 text-sm 4xl:text-xl font-normal text-gray-600">{t("rota.calledFirst")}</span>}
        </h4>
        <div className="flex gap-1">
          <button type="button" className="icon-btn min-h-12 min-w-12" onClick={() => onMove(-1)} disabled={index === 0} aria-label={t("rota.moveUp", { shift: title })}>
            <ArrowUpIcon />
          </button>
          <button type="button" className="icon-btn min-h-12 min-w-12" onClick={() => onMove(1)} disabled={index === count - 1} aria-label={t("rota.moveDown", { shift: title })}>
            <ArrowUpIcon className="rotate-180" />
          </button>
          <button type="button" className="icon-btn min-h-12 min-w-12 text-red-700 hover:bg-red-50" onClick={onRemove} aria-label={t("rota.remove", { shift: title })}>
            <TrashIcon />
          </button>
        </div>
      </div>

      <div>
        <label htmlFor={`${base}-person`} className={label}>
          {t("rota.person")}
        </label>
        <select
          id={`${base}-person`}
          className={controlClass(Boolean(err("client_id")))}
          value={person ?? ""}
          onChange={(e) => onChange({ client_id: e.target.value ? Number(e.target.value) : null })}
          aria-invalid={err("client_id") ? true : undefined}
          aria-describedby={err("client_id") ? errId("client_id") : outsiderNote ? `${base}-outsider` : undefined}
        >
          <option value="">{t("rota.choosePerson")}</option>
          {outsider && <option value={person}>{stillMember ? t("rota.notCallable", { name: outsiderName }) : t("rota.notMember", { name: outsiderName })}</option>}
          {callable.map((m) => (
            <option key={m.client_id} value={m.client_id}>
              {t("rota.personRole", { name: m.username, role: roleLabel(t, m.account_owner ? "owner" : m.role) })}
            </option>
          ))}
        </select>
        {errorText("client_id")}
        {outsiderNote && (
          <p id={`${base}-outsider`} role="status" className="mt-1 text-sm 4xl:text-lg font-medium text-amber-800">
            {outsiderNote}
          </p>
        )}
      </div>

      <fieldset aria-describedby={err("days") ? errId("days") : undefined}>
        <legend className={label}>{t("rota.days")}</legend>
        <div className="grid grid-cols-7 gap-1.5">
          {WEEK.map((day) => {
            const on = shift.days.includes(day);
            return (
              <button
                key={day}
                type="button"
                aria-pressed={on}
                aria-label={weekdayName(day, "long")}
                onClick={() => toggleDay(day)}
                className={`min-h-12 rounded-lg border text-sm 4xl:text-xl font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed ${on ? "border-brand-700 bg-brand-700 text-white" : "border-gray-300 bg-white text-gray-700 hover:bg-gray-50"}`}
              >
                <DayChipText day={day} />
              </button>
            );
          })}
        </div>
        {errorText("days")}
      </fieldset>

      <div className="grid grid-cols-2 gap-3">
        <div>
          <label htmlFor={`${base}-start`} className={label}>
            {t("rota.starts")}
          </label>
          <input
            id={`${base}-start`}
            type="time"
            className={controlClass(Boolean(err("start")))}
            value={shift.start}
            onChange={(e) => onChange({ start: e.target.value })}
            aria-invalid={err("start") ? true : undefined}
            aria-describedby={err("start") ? errId("start") : undefined}
          />
          {errorText("start")}
        </div>
        <div>
          <label htmlFor={`${base}-end`} className={label}>
            {t("rota.ends")}
          </label>
          <input
            id={`${base}-end`}
            type="time"
            className={controlClass(Boolean(err("end")))}
            value={shift.end}
            onChange={(e) => onChange({ end: e.target.value })}
            aria-invalid={err("end") ? true : undefined}
            aria-describedby={err("end") ? errId("end") : `${base}-next-day`}
          />
          {errorText("end")}
        </div>
      </div>
      {shift.start && shift.end && endsNextDay(shift.start, shift.end) && (
        <p id={`${base}-next-day`} className="-mt-2 text-sm 4xl:text-xl font-medium text-amber-800">
          {t("rota.endsNextDay")}
        </p>
      )}
    </li>
  );
}
