import type { CoreHandle } from "../data/core-client.ts";
import type { Session } from "../data/session.ts";
import { firebaseMessaging, pushConfig } from "./firebase-messaging.ts";
import { pushUnavailable, startPush, startWebPush, type PushControl, type PushHandle } from "./push.ts";
import { browserWebPush, webPushAvailability } from "./web-push.ts";

/** A control that answers for `later` once it has come, and says "pending" until then. */
function controlOf(later: Promise<PushHandle>): PushControl {
  let current: PushHandle = pushUnavailable("pending");
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((fn) => fn());
  void later.then((handle) => {
    current = handle;
    handle.subscribe(changed);
    changed();
  });
  return {
    status: () => current.status(),
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    turnOn: () => current.turnOn(),
    leave: () => current.leave(),
  };
}

/** No push in this browser, and why (an iPhone's browser outside the installed app, or none at all). */
const unavailable = () => pushUnavailable(webPushAvailability() === "install" ? "install" : "unsupported");

/**
 * The app's push: Firebase when the build is configured for it (SPEC's flow, its code loaded only
 * then); otherwise standard Web Push with the server's own key, so that a farm gets alarm pushes
 * with no account anywhere else. Answers at once the control the screens and sign-out use.
 */
export function startAppPush({ core, session, showInfo }: { core: CoreHandle; session: Session; showInfo(text: string): void }): PushControl {
  const config = pushConfig();
  if (config) {
    const started = firebaseMessaging(config).then(
      (provider) => (provider ? startPush({ provider, core, session, showInfo }) : unavailable()),
      (err: unknown) => {
        console.error("Push unavailable", err);
        return pushUnavailable("unsupported");
      },
    );
    return controlOf(started);
  }
  const browser = browserWebPush();
  if (!browser) return unavailable();
  return startWebPush({ browser, core, session, showInfo });
}
