import { useEffect } from "react";
import { notify } from "../components/toasts.ts";
import { useAppData } from "../data/provider.tsx";
import { i18n } from "../i18n/i18n.ts";

/**
 * The one notice of an ended session, in the words the server's 401 uses (server/http/session.ts),
 * in the person's language. The session has cleared the client by then, so the route guard takes
 * the user to /login; the toast id keeps it one toast however often it is said.
 */
export function SessionEndNotice() {
  const { session } = useAppData();
  useEffect(() => session.onEnded(() => notify.info(i18n.t("common:sessionEnded"), { toastId: "session-ended" })), [session]);
  return null;
}
