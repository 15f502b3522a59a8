import { memo, useCallback, useId } from "react";
import { toCoreError } from "../../../contract/core-error.ts";
import type { CommandTarget } from "../../../contract/realtime.ts";
import { ackText } from "../../components/server-refusal.ts";
import { messageOf, notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import { i18n } from "../../i18n/i18n.ts";

/** The tile's words, looked up at each render; it re-renders on a change of language through its `tag` prop. */
const t = i18n.getFixedT(null, "dashboard");

/** The catalogue's key of each device's name. */
const DEVICE_KEY = { Irrigation: "irrigation", AC: "ac", Ventilation: "ventilation", Humidifier: "humidifier" } as const satisfies Record<CommandTarget, string>;

type CommandType = "auto" | "status";

interface DeviceTileProps {
  mac: string;
  target: CommandTarget;
  /** Whether the MCU ever reported (or acknowledged) this device; its states below mean nothing otherwise. */
  reported: boolean;
  /** What the device last reported. */
  status: boolean;
  auto: boolean;
  /** The value a command asked for while the device has not acknowledged it, else undefined. */
  pendingStatus: boolean | undefined;
  pendingAuto: boolean | undefined;
  online: boolean;
  /** Why the person's role may not switch (the card says it once), or null. */
  refusal: string | null;
  /** The locale the words are in: the tile is memoized, and a change of language re-renders it. */
  tag: string;
}

/**
 * Why the tile's toggles cannot be used, or null. An offline MCU cannot act on a command, so its
 * toggles are disabled and show the last state it reported, labelled as such, rather than a
 * state that may no longer be true; a device the MCU never reported has no state to show.
 */
function unavailableReason(online: boolean, reported: boolean): string | null {
  if (!online) return reported ? t("device.offlineLastState") : t("device.offlineNoState");
  if (!reported) return t("device.notReported");
  return null;
}

/**
 * One device tile of an MCU card (SPEC §2): an Automation and a Status toggle. A toggle shows the
 * requested value while the device has not acknowledged it; a refusal rolls it back (the core
 * drops the pending value) and shows the device's reason.
 *
 * Its props are primitives and it is memoized, so a reading that leaves this device as it was
 * does not re-render the tile or its switches.
 */
export const DeviceTile = memo(function DeviceTile({ mac, target, reported, status, auto, pendingStatus, pendingAuto, online, refusal, tag }: DeviceTileProps) {
  const { core } = useAppData();
  const titleId = useId();
  const reason = refusal ?? unavailableReason(online, reported);

  const send = useCallback(
    async (type: CommandType, onOff: boolean) => {
      try {
        const ack = await core.sendCommand(mac, target, type, onOff);
        if (!ack.ok) notify.error(ackText(ack));
      } catch (err) {
        notify.error(messageOf(err, toCoreError(err).message));
      }
    },
    [core, mac, target],
  );
  const sendAuto = useCallback((next: boolean) => void send("auto", next), [send]);
  const sendStatus = useCallback((next: boolean) => void send("status", next), [send]);

  // What the tile shows is what the next command will meet: a pending "Automation off" frees Status.
  const shownAuto = pendingAuto ?? (reported ? auto : false);
  const shownStatus = pendingStatus ?? (reported ? status : false);
  // The device switches itself while its Automation is on and refuses a manual Status, so the
  // Status toggle is disabled with that reason instead of sending a command bound to fail.
  const statusReason = shownAuto ? t("device.automationOn") : null;
  const name = t(`devices.${DEVICE_KEY[target]}`);

  return (
    <div role="group" aria-labelledby={titleId} className="rounded-xl border border-gray-200 bg-gray-50 px-2.5 py-2 sm:px-3 4xl:px-4 4xl:py-3 min-w-0">
      <p id={titleId} className="font-medium text-gray-900 text-sm 4xl:text-xl">
        {name}
      </p>
      <div className="mt-1 flex flex-col gap-1 4xl:gap-2">
        <DeviceSwitch device={name} label={t("device.automation")} checked={shownAuto} pending={pendingAuto !== undefined} disabledReason={reason} showReason={false} onChange={sendAuto} tag={tag} />
        <DeviceSwitch
          device={name}
          label={t("device.status")}
          checked={shownStatus}
          pending={pendingStatus !== undefined}
          disabledReason={reason ?? statusReason}
          showReason={reason === null && statusReason !== null}
          onChange={sendStatus}
          tag={tag}
        />
      </div>
      {/* The card says once that the MCU is offline; a device it does not report is this tile's own news. */}
      {online && reason && reason !== refusal && (
        <p className="mt-1 text-xs 4xl:text-base text-gray-600" aria-hidden="true">
          {reason}
        </p>
      )}
    </div>
  );
});

interface DeviceSwitchProps {
  /** The device's name, which the switch's name begins with ("AC Automation"). */
  device: string;
  label: string;
  checked: boolean;
  pending: boolean;
  disabledReason: string | null;
  /** Show the reason under the switch (otherwise it is said once for the tile or the card). */
  showReason: boolean;
  onChange: (next: boolean) => void;
  /** The locale the words are in (see DeviceTileProps). */
  tag: string;
}

/**
 * A labelled switch (a native button with role="switch") whose hit area is at least 44 x 44 px
 * (WCAG 2.5.5, Apple's HIG): the button is that big, the track drawn inside it is lower. The
 * label toggles it too.
 */
const DeviceSwitch = memo(function DeviceSwitch({ device, label, checked, pending, disabledReason, showReason, onChange }: DeviceSwitchProps) {
  const id = useId();
  const reasonId = `${id}-reason`;
  const pendingId = `${id}-pending`;
  const disabled = disabledReason !== null;
  const describedBy = [disabled ? reasonId : null, pending ? pendingId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-1">
      <label
        htmlFor={id}
        className={`min-w-0 text-xs sm:text-sm 4xl:text-lg ${disabled ? "text-gray-500 cursor-not-allowed" : "text-gray-700 cursor-pointer"}`}
      >
        <span className="sr-only">{device} </span>
        {label}
      </label>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-describedby={describedBy}
        aria-busy={pending}
        disabled={disabled}
        // Ignored rather than disabled while pending, so keyboard focus stays on the switch.
        onClick={() => {
          if (!pending) onChange(!checked);
        }}
        className="group inline-flex h-11 w-11 4xl:h-16 4xl:w-20 shrink-0 items-center justify-center rounded-full focus:outline-none disabled:cursor-not-allowed"
      >
        <span
          className={`relative inline-flex h-6 w-11 4xl:h-8 4xl:w-15 items-center rounded-full transition-colors ${checked ? "bg-brand-600" : "bg-gray-300"} group-disabled:opacity-50 group-focus-visible:outline group-focus-visible:outline-2 group-focus-visible:outline-offset-2 group-focus-visible:outline-brand-600 ${pending ? "animate-pulse" : ""}`}
        >
          <span className={`inline-block h-4 w-4 4xl:h-6 4xl:w-6 rounded-full bg-white shadow transition-transform ${checked ? "translate-x-6 4xl:translate-x-8 rtl:-translate-x-6 4xl:rtl:-translate-x-8" : "translate-x-1 rtl:-translate-x-1"}`} />
        </span>
      </button>
      {disabledReason && (
        <p id={reasonId} className={showReason ? "basis-full -mt-1 text-xs 4xl:text-base text-gray-600" : "sr-only"}>
          {disabledReason}
        </p>
      )}
      {pending && (
        <p id={pendingId} className="sr-only">
          {t("device.waiting")}
        </p>
      )}
    </div>
  );
});
