import { Description, Field, Label, Switch } from "@headlessui/react";
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences as Preferences } from "../../../contract/alarms-values.ts";
import { LoadError, Loading } from "../../components/states.tsx";
import { notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import { DevicePush } from "./device-push.tsx";
import { ServerMessage, serverMessageOf } from "./server-message.tsx";
import { failureText } from "../../components/server-refusal.ts";

interface Preference {
  label: string;
  description?: string;
}

type InAppKey = keyof Preferences["in_app"];

/** What the server can deliver: these are real choices. */
const IN_APP: InAppKey[] = ["device_status", "environmental", "battery"];

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The browser's own time zone, the quiet hours' default until the client picks one. */
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** Every IANA zone the browser knows (a free text field where it cannot list them), with `current` among them. */
function timeZones(current: string): string[] | null {
  const supported = (Intl as { supportedValuesOf?: (key: "timeZone") => string[] }).supportedValuesOf?.("timeZone");
  if (!supported) return null;
  return supported.includes(current) ? supported : [current, ...supported];
}

const same = (a: Preferences, b: Preferences) => JSON.stringify(a) === JSON.stringify(b);

/** A preference's switch, with its label and description tied to it. */
function PreferenceSwitch({ item, checked, onChange, disabled = false }: { item: Preference; checked: boolean; onChange?: (on: boolean) => void; disabled?: boolean }) {
  return (
    <Field disabled={disabled} className="flex items-center justify-between gap-4 px-4 py-3">
      <div className="min-w-0">
        <Label className="block font-medium text-gray-900">{item.label}</Label>
        {item.description && <Description className="text-sm text-gray-600">{item.description}</Description>}
      </div>
      <Switch
        checked={checked}
        onChange={onChange}
        className="group relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-gray-300 data-[checked]:bg-brand-600 transition focus:outline-none data-[focus]:ring-2 data-[focus]:ring-brand-600/40 data-[focus]:ring-offset-2 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-70"
      >
        <span aria-hidden="true" className={`inline-block h-5 w-5 rounded-full bg-white shadow transition ${checked ? "translate-x-5.5 rtl:-translate-x-5.5" : "translate-x-0.5 rtl:-translate-x-0.5"}`} />
      </Switch>
    </Field>
  );
}

function Group({ title, note, children }: { title: string; note?: string; children: ReactNode }) {
  return (
    <fieldset>
      <legend className="text-base font-semibold text-gray-900 mb-2">{title}</legend>
      {note && <p className="mb-2 text-sm text-gray-600">{note}</p>}
      <ul className="divide-y divide-gray-100 rounded-xl border border-gray-200">{children}</ul>
    </fieldset>
  );
}

/**
 * SPEC §2 Settings, Notifications tab, made real for what the server delivers: in-app
 * notifications (the bell) by kind, push for alarms, and quiet hours (no push between two times of
 * day, in the client's time zone), stored on the server. Email is not delivered yet: its switches
 * stay SPEC's display-only ones, and say so.
 */
export function NotificationPreferences() {
  const { core } = useAppData();
  const { t } = useTranslation("settings");
  const inApp = (key: InAppKey): Preference => ({ label: t(`notifications.inApp.${key}.label`), description: t(`notifications.inApp.${key}.description`) });
  const emergency: Preference = { label: t("notifications.push.emergency.label"), description: t("notifications.push.emergency.description") };
  // SPEC §2's switches of what is not delivered yet: shown as SPEC shows them (on), and unchangeable.
  const dailySummary: Preference = { label: t("notifications.push.dailySummary.label"), description: t("notifications.push.dailySummary.description") };
  const email: Preference[] = [
    { label: t("notifications.email.system") },
    { label: t("notifications.email.deviceStatus.label"), description: t("notifications.email.deviceStatus.description") },
    { label: t("notifications.email.environmental") },
    { label: t("notifications.email.maintenance") },
  ];
  const [attempt, setAttempt] = useState(0);
  const [load, setLoad] = useState<{ status: "loading" } | { status: "error"; message: string } | { status: "ready" }>({ status: "loading" });
  /** What the server holds, and the form's edit of it. */
  const [stored, setStored] = useState<Preferences>(DEFAULT_NOTIFICATION_PREFERENCES);
  const [draft, setDraft] = useState<Preferences>(DEFAULT_NOTIFICATION_PREFERENCES);
  const [saving, setSaving] = useState(false);
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const current = useRef(0);
  const ids = { start: useId(), end: useId(), zone: useId(), timeError: useId() };

  useEffect(() => {
    const request = ++current.current;
    setLoad({ status: "loading" });
    core.notificationPreferences().then(
      (p) => {
        if (request !== current.current) return;
        setStored(p);
        // Never saved (the server's defaults): the quiet hours start in this browser's zone, not UTC.
        setDraft(same(p, DEFAULT_NOTIFICATION_PREFERENCES) ? { ...p, quiet_hours: { ...p.quiet_hours, time_zone: browserTimeZone() } } : p);
        setLoad({ status: "ready" });
      },
      (err: unknown) => {
        if (request === current.current) setLoad({ status: "error", message: failureText(err) });
      },
    );
    return () => {
      current.current++;
    };
  }, [core, attempt]);

  const setInApp = (key: InAppKey, on: boolean) => setDraft((d) => ({ ...d, in_app: { ...d.in_app, [key]: on } }));
  const setQuiet = useCallback((part: Partial<Preferences["quiet_hours"]>) => setDraft((d) => ({ ...d, quiet_hours: { ...d.quiet_hours, ...part } })), []);
  const zones = useMemo(() => timeZones(draft.quiet_hours.time_zone), [draft.quiet_hours.time_zone]);
  const q = draft.quiet_hours;
  const timeError = q.enabled && (!TIME.test(q.start) || !TIME.test(q.end)) ? t("notifications.quiet.timesMissing") : null;
  const changed = !same(draft, stored);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (timeError || saving) return;
    setSaving(true);
    setServerMessage(null);
    try {
      const saved = await core.saveNotificationPreferences(draft);
      setStored(saved);
      setDraft(saved);
      notify.success(t("notifications.saved"));
    } catch (err) {
      // The form keeps every change, so the client can correct and save again.
      notify.error(t("notifications.notSaved"));
      setServerMessage(serverMessageOf(err) ?? failureText(err));
    } finally {
      setSaving(false);
    }
  }

  if (load.status === "loading") return <Loading text={t("notifications.loading")} />;
  if (load.status === "error") return <LoadError text={t("notifications.loadFailed", { message: load.message })} onRetry={() => setAttempt((n) => n + 1)} />;

  const timeInput =
    "block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-gray-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 disabled:bg-gray-100 disabled:text-gray-500";
  return (
    <form className="space-y-6" onSubmit={save} noValidate aria-label={t("notifications.formLabel")}>
      <Group title={t("notifications.inApp.title")} note={t("notifications.inApp.note")}>
        {IN_APP.map((key) => (
          <li key={key}>
            <PreferenceSwitch item={inApp(key)} checked={draft.in_app[key]} onChange={(on) => setInApp(key, on)} />
          </li>
        ))}
      </Group>

      <Group title={t("notifications.push.title")}>
        <DevicePush />
        <li>
          <PreferenceSwitch item={emergency} checked={draft.push.emergency} onChange={(on) => setDraft((d) => ({ ...d, push: { emergency: on } }))} />
        </li>
        <li>
          <PreferenceSwitch item={dailySummary} checked disabled />
        </li>
      </Group>

      <fieldset>
        <legend className="text-base font-semibold text-gray-900 mb-2">{t("notifications.quiet.title")}</legend>
        <div className="rounded-xl border border-gray-200">
          <PreferenceSwitch
            item={{ label: t("notifications.quiet.label"), description: t("notifications.quiet.description") }}
            checked={q.enabled}
            onChange={(enabled) => setQuiet({ enabled })}
          />
          <div className="grid gap-3 sm:grid-cols-3 border-t border-gray-100 px-4 py-3">
            <div>
              <label htmlFor={ids.start} className="block text-sm font-medium text-gray-700 mb-1">
                {t("notifications.quiet.from")}
              </label>
              <input id={ids.start} type="time" className={timeInput} value={q.start} disabled={!q.enabled} onChange={(e) => setQuiet({ start: e.target.value })} aria-invalid={timeError && !TIME.test(q.start) ? true : undefined} aria-describedby={timeError ? ids.timeError : undefined} />
            </div>
            <div>
              <label htmlFor={ids.end} className="block text-sm font-medium text-gray-700 mb-1">
                {t("notifications.quiet.to")}
              </label>
              <input id={ids.end} type="time" className={timeInput} value={q.end} disabled={!q.enabled} onChange={(e) => setQuiet({ end: e.target.value })} aria-invalid={timeError && !TIME.test(q.end) ? true : undefined} aria-describedby={timeError ? ids.timeError : undefined} />
            </div>
            <div>
              <label htmlFor={ids.zone} className="block text-sm font-medium text-gray-700 mb-1">
                {t("notifications.quiet.timeZone")}
              </label>
              {zones ? (
                <select id={ids.zone} className={timeInput} value={q.time_zone} disabled={!q.enabled} onChange={(e) => setQuiet({ time_zone: e.target.value })}>
                  {zones.map((z) => (
                    <option key={z} value={z}>
                      {z.replace(/_/g, " ")}
                    </option>
                  ))}
                </select>
              ) : (
                <input id={ids.zone} type="text" className={timeInput} value={q.time_zone} disabled={!q.enabled} onChange={(e) => setQuiet({ time_zone: e.target.value })} />
              )}
            </div>
            {timeError && (
              <p id={ids.timeError} role="alert" className="sm:col-span-3 text-sm text-red-600">
                {timeError}
              </p>
            )}
            <p className="sm:col-span-3 text-sm text-gray-600">{t("notifications.quiet.midnight")}</p>
          </div>
        </div>
      </fieldset>

      <Group title={t("notifications.email.title")} note={t("notifications.email.note")}>
        {email.map((item) => (
          <li key={item.label}>
            <PreferenceSwitch item={item} checked disabled />
          </li>
        ))}
      </Group>

      <div className="flex flex-col items-stretch sm:items-end gap-2">
        <ServerMessage text={serverMessage} />
        <button type="submit" className="btn-primary" disabled={saving || !changed || timeError !== null} aria-busy={saving}>
          {saving ? t("notifications.saving") : t("notifications.save")}
        </button>
      </div>
    </form>
  );
}
