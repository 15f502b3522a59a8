import { Description, Field, Label, Switch } from "@headlessui/react";
import { useId } from "react";
import { toCoreError } from "../../../contract/core-error.ts";
import type { CommandTarget } from "../../../contract/realtime.ts";
import { pendingKey } from "../../../streams/device-snapshots.ts";
import { messageOf, notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";

type CommandType = "auto" | "status";

interface DeviceTileProps {
  mac: string;
  target: CommandTarget;
  /** What the device last reported (or acknowledged); undefined if it never reported this device. */
  device: { status: boolean; auto: boolean } | undefined;
  pending: Readonly<Record<string, boolean>> | null;
  online: boolean;
}

/**
 * Why the tile's toggles cannot be used, or null. An offline MCU cannot act on a command, so its
 * toggles are disabled and show the last state it reported, labelled as such, rather than a
 * state that may no longer be true; a device the MCU never reported has no state to show.
 */
function unavailableReason(online: boolean, reported: boolean): string | null {
  if (!online) return reported ? "MCU offline: last known state" : "MCU offline: no state reported";
  if (!reported) return "Not reported by this MCU";
  return null;
}

/**
 * The device switches itself while its Automation is on and refuses a manual Status, so the
 * Status toggle is disabled with that reason instead of sending a command bound to fail.
 */
export const AUTOMATION_ON_REASON = "Automation is on";

/**
 * One device tile of an MCU card (SPEC §2): an Automation and a Status toggle. A toggle shows the
 * requested value while the device has not acknowledged it; a refusal rolls it back (the core
 * drops the pending value) and shows the device's reason.
 */
export function DeviceTile({ mac, target, device, pending, online }: DeviceTileProps) {
  const { core } = useAppData();
  const titleId = useId();
  const reason = unavailableReason(online, device !== undefined);

  async function send(type: CommandType, onOff: boolean) {
    try {
      const ack = await core.sendCommand(mac, target, type, onOff);
      if (!ack.ok) notify.error(ack.message);
    } catch (err) {
      notify.error(messageOf(err, toCoreError(err).message));
    }
  }

  const shown = (type: CommandType) => pending?.[pendingKey(target, type)] ?? device?.[type] ?? false;
  // What the tile shows is what the next command will meet: a pending "Automation off" frees Status.
  const automationOn = shown("auto");

  return (
    <div role="group" aria-labelledby={titleId} className="rounded-xl border border-gray-200 bg-gray-50 px-2.5 py-2 sm:px-3 4xl:px-4 4xl:py-3 min-w-0">
      <p id={titleId} className="font-medium text-gray-900 text-sm 4xl:text-xl">
        {target}
      </p>
      <div className="mt-1 flex flex-col gap-1 4xl:gap-2">
        {(["auto", "status"] as const).map((type) => {
          const waiting = pending?.[pendingKey(target, type)];
          const ownReason = type === "status" && automationOn ? AUTOMATION_ON_REASON : null;
          return (
            <DeviceSwitch
              key={type}
              target={target}
              label={type === "auto" ? "Automation" : "Status"}
              checked={shown(type)}
              pending={waiting !== undefined}
              disabledReason={reason ?? ownReason}
              showReason={reason === null && ownReason !== null}
              onChange={(next) => void send(type, next)}
            />
          );
        })}
      </div>
      {/* The card says once that the MCU is offline; a device it does not report is this tile's own news. */}
      {online && reason && (
        <p className="mt-1 text-xs 4xl:text-base text-gray-600" aria-hidden="true">
          {reason}
        </p>
      )}
    </div>
  );
}

interface DeviceSwitchProps {
  target: CommandTarget;
  label: string;
  checked: boolean;
  pending: boolean;
  disabledReason: string | null;
  /** Show the reason under the switch (otherwise it is said once for the tile or the card). */
  showReason: boolean;
  onChange: (next: boolean) => void;
}

/**
 * A labelled switch whose hit area is at least 44 x 44 px (WCAG 2.5.5, Apple's HIG): the button
 * is that big, the track drawn inside it is lower. The label toggles it too.
 */
function DeviceSwitch({ target, label, checked, pending, disabledReason, showReason, onChange }: DeviceSwitchProps) {
  return (
    <Field disabled={disabledReason !== null} className="flex flex-wrap items-center justify-between gap-x-1">
      <Label className="min-w-0 text-xs sm:text-sm 4xl:text-lg text-gray-700 data-[disabled]:text-gray-500 cursor-pointer data-[disabled]:cursor-not-allowed">
        <span className="sr-only">{target} </span>
        {label}
      </Label>
      <Switch
        checked={checked}
        // Ignored rather than disabled while pending, so keyboard focus stays on the switch.
        onChange={(next) => {
          if (!pending) onChange(next);
        }}
        aria-busy={pending}
        className="group inline-flex h-11 w-11 4xl:h-16 4xl:w-20 shrink-0 items-center justify-center rounded-full focus:outline-none data-[disabled]:cursor-not-allowed"
      >
        <span
          className={`relative inline-flex h-6 w-11 4xl:h-8 4xl:w-15 items-center rounded-full transition-colors bg-gray-300 group-data-[checked]:bg-brand-600 group-data-[disabled]:opacity-50 group-focus-visible:outline group-focus-visible:outline-2 group-focus-visible:outline-offset-2 group-focus-visible:outline-brand-600 ${pending ? "animate-pulse" : ""}`}
        >
          <span className="inline-block h-4 w-4 4xl:h-6 4xl:w-6 translate-x-1 rounded-full bg-white shadow transition-transform group-data-[checked]:translate-x-6 4xl:group-data-[checked]:translate-x-8" />
        </span>
      </Switch>
      {disabledReason &&
        (showReason ? (
          <Description className="basis-full -mt-1 text-xs 4xl:text-base text-gray-600">{disabledReason}</Description>
        ) : (
          <Description className="sr-only">{disabledReason}</Description>
        ))}
      {pending && <Description className="sr-only">Waiting for the device</Description>}
    </Field>
  );
}
