import { act } from "react";
import { createRoot } from "react-dom/client";
import { ToastContainer } from "react-toastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { commands } from "vitest/browser";
import { CONSTANTS } from "../../contract/limits.ts";
import { notify } from "../components/toasts.ts";
import { createAppData } from "../data/app-data.ts";
import type { AppData } from "../data/provider.tsx";
import { pushConfig } from "./firebase-messaging.ts";
import { refreshPushToken, startPush, TOKEN_SAVED_AT_KEY, type MessagingProvider, type PushMessage } from "./push.ts";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A messaging service that answers what the test says and records what it is asked. */
function fakeProvider(permission: NotificationPermission = "granted", token = "token-1") {
  let handler: ((m: PushMessage) => void) | null = null;
  const provider: MessagingProvider = {
    requestPermission: vi.fn(async () => permission),
    getToken: vi.fn(async () => token),
    onForegroundMessage: (h) => {
      handler = h;
      return () => (handler = null);
    },
  };
  return { provider, deliver: (m: PushMessage) => handler?.(m) };
}

describe("push notifications with a fake messaging provider", () => {
  let app: AppData & { terminate(): void };
  const storage = sessionStorage;

  beforeAll(async () => {
    const fixture = await commands.seedLiveFixture(0);
    storage.clear();
    app = createAppData({ storage });
    app.session.setClient(await app.core.login(fixture.username, fixture.password));
  });
  afterAll(() => app?.terminate());

  it("stores the token on the client record, and again only after 7 days", async () => {
    const { provider } = fakeProvider("granted", "token-1");
    const updateClient = vi.fn(app.core.updateClient);
    const core = { updateClient };
    let now = Date.parse("2026-06-01T08:00:00Z");
    await refreshPushToken({ provider, core, session: app.session, storage, now: () => now });
    expect(updateClient).toHaveBeenCalledTimes(1);
    expect((await app.core.me()).fcm_token).toBe("token-1");
    expect(app.session.getClient()!.fcm_token).toBe("token-1");
    expect(storage.getItem(TOKEN_SAVED_AT_KEY)).toBe(String(now));

    now += CONSTANTS.pushTokenRefreshMs - 1;
    await refreshPushToken({ provider, core, session: app.session, storage, now: () => now });
    expect(updateClient).toHaveBeenCalledTimes(1);

    now += 1;
    await refreshPushToken({ provider, core, session: app.session, storage, now: () => now });
    expect(updateClient).toHaveBeenCalledTimes(2);
  });

  it("raises Permission denied when notification permission is not granted", async () => {
    const { provider } = fakeProvider("denied");
    await expect(refreshPushToken({ provider, core: app.core, session: app.session, storage })).rejects.toThrow("Permission denied");
    expect(provider.getToken).not.toHaveBeenCalled();
  });

  it("shows a foreground message as an info notice titled with its title, or New Notification", async () => {
    const host = document.createElement("div");
    document.body.append(host);
    const root = createRoot(host);
    await act(async () => root.render(<ToastContainer />));
    const { provider, deliver } = fakeProvider();
    const push = startPush({ provider, core: app.core, session: app.session, storage, showInfo: (t) => notify.info(t) });
    await act(async () => deliver({ title: "Tunnel 2 went offline", body: "stopped reporting" }));
    await vi.waitFor(() => expect(host.textContent).toContain("Tunnel 2 went offline"));
    await act(async () => deliver({}));
    await vi.waitFor(() => expect(host.textContent).toContain("New Notification"));
    expect(host.querySelectorAll(".Toastify__toast--info").length).toBe(2);
    push.stop();
    await act(async () => root.unmount());
    host.remove();
  });

  it("stays off, loading nothing, when push is not configured", () => {
    expect(pushConfig()).toBeNull();
  });
});
