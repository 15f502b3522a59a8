import { useState, useSyncExternalStore } from "react";
import { messageOf, notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import type { PushStatus } from "../../pwa/push.ts";

const noSubscribe = () => () => {};
const pending = (): PushStatus => "pending";

/** What each status says of this device (none while push is loading, or where the app runs without it). */
const SAYS: Record<Exclude<PushStatus, "pending">, string> = {
  on: "Alarm pushes are on for this device.",
  off: "This device does not receive alarm pushes yet.",
  blocked: "Notifications are blocked for this app. Allow them in the browser's settings to receive alarm pushes.",
  install: "Add this app to your Home Screen to receive alarm pushes",
  unsupported: "This browser cannot receive alarm pushes.",
};

/**
 * Whether this device receives alarm pushes, and the button that turns them on (an item of the
 * Push list). Nothing asks on
 * load where the browser lets only a click ask (Safari, every browser of an iPhone or iPad): there
 * the person turns them on here. An iPhone's browser has no push outside the app added to the
 * Home Screen, which is said instead.
 */
export function DevicePush() {
  const { push } = useAppData();
  const status = useSyncExternalStore(push?.subscribe ?? noSubscribe, push?.status ?? pending);
  const [turningOn, setTurningOn] = useState(false);
  if (!push || status === "pending") return null;

  async function turnOn() {
    setTurningOn(true);
    try {
      await push!.turnOn();
      notify.success("Alarm pushes are on for this device");
    } catch (err) {
      // Refused at the browser's question: the status now says where to allow them.
      notify.error(push!.status() === "blocked" ? "Notifications are blocked for this app" : messageOf(err, "Alarm pushes could not be turned on"));
    } finally {
      setTurningOn(false);
    }
  }

  return (
    <li className="flex flex-col sm:flex-row sm:items-center justify-between gap-3 px-4 py-3" data-push-status={status}>
      <div className="min-w-0">
        <p className="font-medium text-gray-900">This device</p>
        <p className={`text-sm ${status === "blocked" || status === "install" ? "text-amber-800" : "text-gray-600"}`} role="status">
          {SAYS[status]}
        </p>
        {status === "install" && <p className="text-sm text-gray-600">In Safari, tap Share, then Add to Home Screen, and open the app from there.</p>}
      </div>
      {status === "off" && (
        <button type="button" className="btn-primary shrink-0" disabled={turningOn} aria-busy={turningOn} onClick={() => void turnOn()}>
          {turningOn ? "Turning on…" : "Turn on alarm pushes"}
        </button>
      )}
    </li>
  );
}
