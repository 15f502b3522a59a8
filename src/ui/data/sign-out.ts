import type { AppData } from "./provider.tsx";

/**
 * Sign Out (SPEC §2: the stored client goes, then /login). This browser's push subscription goes
 * too, and the server forgets it for the client before the session ends, so a shared phone stops
 * ringing with the alarms of whoever signed out.
 */
export async function signOut({ core, session, push }: Pick<AppData, "core" | "session" | "push">): Promise<void> {
  session.clearClient();
  const pushEndpoint = push ? await push.leave() : null;
  await core.logout({ pushEndpoint }).catch(() => undefined);
}
