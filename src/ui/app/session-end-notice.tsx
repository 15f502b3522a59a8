import { useEffect } from "react";
import { notify } from "../components/toasts.ts";
import { useAppData } from "../data/provider.tsx";

/** The server's own words for an ended session (server/http/session.ts). */
export const SESSION_ENDED_TEXT = "Your session has ended. Please sign in again.";

/**
 * The one notice of an ended session. The session has cleared the client by then, so the route
 * guard takes the user to /login; the toast id keeps it one toast however often it is said.
 */
export function SessionEndNotice() {
  const { session } = useAppData();
  useEffect(() => session.onEnded(() => notify.info(SESSION_ENDED_TEXT, { toastId: "session-ended" })), [session]);
  return null;
}
