import { useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { messageOf, notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import type { PushStatus } from "../../pwa/push.ts";

const noSubscribe = () => () => {};
const pending = (): PushStatus => "pending";

/** What each status says of this device (none while push is loading, or where the app runs without it): `devicePush.says.<status>`. */
type ShownStatus = Exclude<PushStatus, "pending">;

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
  const { t } = useTranslation("settings");
  if (!push || status === "pending") return null;

  async function turnOn() {
    setTurningOn(true);
    try {
      await push!.turnOn();
      notify.success(t("devicePush.turnedOn"));
    } catch (err) {
      // Refused at the browser's question: the status now says where to allow them.
      notify.error(push!.status() === "blocked" ? t("devicePush.blocked") : messageOf(err, t("devicePush.failed")));
    } finally {
      setTurningOn(false);
    }
  }

  return (
    <li className="flex flex-col sm:flex-row sm:items-center justify-between gap-3 px-4 py-3" data-push-status={status}>
      <div className="min-w-0">
        <p className="font-medium text-gray-900">{t("devicePush.thisDevice")}</p>
        <p className={`text-sm ${status === "blocked" || status === "install" ? "text-amber-800" : "text-gray-600"}`} role="status">
          {t(`devicePush.says.${status satisfies ShownStatus}`)}
        </p>
        {status === "install" && <p className="text-sm text-gray-600">{t("devicePush.installHow")}</p>}
      </div>
      {status === "off" && (
        <button type="button" className="btn-primary shrink-0" disabled={turningOn} aria-busy={turningOn} onClick={() => void turnOn()}>
          {turningOn ? t("devicePush.turningOn") : t("devicePush.turnOn")}
        </button>
      )}
    </li>
  );
}
