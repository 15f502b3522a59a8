import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences as Preferences } from "../../../contract/alarms-values.ts";
import { CoreError } from "../../../contract/core-error.ts";
import type { CoreHandle } from "../../data/core-client.ts";
import { AppDataProvider } from "../../data/provider.tsx";
import type { Session } from "../../data/session.ts";
import { createAppStore } from "../../data/store.ts";
import { pushUnavailable, startWebPush, type PushControl, type WebPushBrowser } from "../../pwa/push.ts";
import { NotificationPreferences } from "./notification-preferences.tsx";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const SAVED: Preferences = {
  in_app: { device_status: true, environmental: false, battery: true },
  push: { emergency: true },
  quiet_hours: { enabled: true, start: "22:00", end: "06:30", time_zone: "Asia/Beirut" },
};

/** A core that answers the preference calls as the test says, and records what it was asked to save. */
function fakeCore(answers: { load: () => Promise<Preferences>; save?: (p: Preferences) => Promise<Preferences> }) {
  const saved: Preferences[] = [];
  const core = {
    notificationPreferences: () => answers.load(),
    saveNotificationPreferences: (p: Preferences) => {
      saved.push(p);
      return answers.save ? answers.save(p) : Promise.resolve(p);
    },
  } as unknown as CoreHandle;
  return { core, saved };
}

const settle = () => act(async () => void (await new Promise((r) => setTimeout(r, 0))));

describe("the Notifications tab in a real browser", () => {
  let host: HTMLDivElement;
  let root: Root;

  beforeEach(() => {
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(async () => {
    await act(async () => root.unmount());
    host.remove();
  });

  async function render(core: CoreHandle, push?: PushControl) {
    await act(async () =>
      root.render(
        <AppDataProvider value={{ core, store: createAppStore(), session: {} as Session, push }}>
          <NotificationPreferences />
        </AppDataProvider>,
      ),
    );
    await settle();
  }
  const switchNamed = (name: string) =>
    [...host.querySelectorAll<HTMLElement>('[role="switch"]')].find((s) => document.getElementById(s.getAttribute("aria-labelledby")!.split(" ")[0]!)?.textContent === name)!;
  const byLabel = <T extends HTMLElement>(text: string) => {
    const label = [...host.querySelectorAll("label")].find((l) => l.textContent === text)!;
    return document.getElementById(label.htmlFor) as T;
  };
  const saveButton = () => [...host.querySelectorAll("button")].find((b) => b.textContent === "Save Preferences" || b.textContent === "Saving…")!;
  const click = (el: HTMLElement) => act(async () => el.click());

  it("shows the stored choices, real ones enabled and email display-only, and saves a change whole", async () => {
    const { core, saved } = fakeCore({ load: async () => SAVED });
    await render(core);
    expect(switchNamed("Environmental Alerts").getAttribute("aria-checked")).toBe("false");
    expect(switchNamed("Low Battery").getAttribute("aria-checked")).toBe("true");
    expect(byLabel<HTMLInputElement>("From").value).toBe("22:00");
    expect(byLabel<HTMLInputElement>("To").value).toBe("06:30");
    expect(byLabel<HTMLSelectElement>("Time zone").value).toBe("Asia/Beirut");
    for (const name of ["System Alerts", "Maintenance Reminders", "Daily Summary"]) expect(switchNamed(name).hasAttribute("disabled") || switchNamed(name).getAttribute("aria-disabled") === "true").toBe(true);
    expect(host.textContent).toContain("Email delivery is not available yet");
    // Nothing changed: nothing to save.
    expect(saveButton().disabled).toBe(true);

    await click(switchNamed("Low Battery"));
    expect(saveButton().disabled).toBe(false);
    await click(saveButton());
    await settle();
    expect(saved).toEqual([{ ...SAVED, in_app: { ...SAVED.in_app, battery: false } }]);
    expect(saveButton().disabled).toBe(true);
  });

  it("keeps every change and shows the server's reason when a save is refused", async () => {
    const reason = "quiet_hours.time_zone must be an IANA time zone, like Asia/Beirut or UTC";
    const { core } = fakeCore({ load: async () => SAVED, save: async () => Promise.reject(new CoreError("VALIDATION", reason, 400, reason)) });
    await render(core);
    await click(switchNamed("Emergency Alerts"));
    await click(saveButton());
    await settle();
    expect(host.querySelector('[role="alert"]')?.textContent).toBe(reason);
    expect(switchNamed("Emergency Alerts").getAttribute("aria-checked")).toBe("false");
    expect(saveButton().disabled).toBe(false);
  });

  it("starts never-saved quiet hours in the browser's time zone, and wants both times while they are on", async () => {
    const { core } = fakeCore({ load: async () => DEFAULT_NOTIFICATION_PREFERENCES });
    await render(core);
    expect(byLabel<HTMLSelectElement>("Time zone").value).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    // Off: the times cannot be edited.
    expect(byLabel<HTMLInputElement>("From").disabled).toBe(true);
    await click(switchNamed("Quiet hours"));
    const from = byLabel<HTMLInputElement>("From");
    expect(from.disabled).toBe(false);
    // A cleared time is no time: Save waits for one, and says why.
    await act(async () => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
      set.call(from, "");
      from.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect(host.querySelector('[role="alert"]')?.textContent).toBe("Enter a start and an end time");
    expect(from.getAttribute("aria-invalid")).toBe("true");
    expect(saveButton().disabled).toBe(true);
  });

  it("asks nothing on load where only a click may ask (Safari, an iPhone), and turns alarm pushes on from its button", async () => {
    let permission: NotificationPermission = "default";
    const browser: WebPushBrowser = {
      requestPermission: vi.fn(async (): Promise<NotificationPermission> => (permission = "granted")),
      subscribe: vi.fn(async () => ({ endpoint: "https://web.push.apple.com/device", keys: { p256dh: "B", auth: "a" } })),
      unsubscribe: async () => null,
      onForegroundMessage: () => () => {},
    };
    const stored: unknown[] = [];
    const core = {
      ...fakeCore({ load: async () => SAVED }).core,
      pushVapidPublicKey: async () => "BKey",
      savePushSubscription: async (s: unknown) => void stored.push(s),
    } as unknown as CoreHandle;
    const session = { getClient: () => ({ client_id: 7 }), subscribe: () => () => {} } as unknown as Session;
    const push = startWebPush({ browser, core, session, showInfo: () => {}, environment: { permission: () => permission, asksOnGestureOnly: true } });
    await render(core, push);
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(host.textContent).toContain("This device does not receive alarm pushes yet.");
    await click([...host.querySelectorAll("button")].find((b) => b.textContent === "Turn on alarm pushes")!);
    await settle();
    expect(browser.requestPermission).toHaveBeenCalledOnce();
    expect(stored).toEqual([{ endpoint: "https://web.push.apple.com/device", keys: { p256dh: "B", auth: "a" } }]);
    expect(host.textContent).toContain("Alarm pushes are on for this device.");
    expect([...host.querySelectorAll("button")].some((b) => b.textContent === "Turn on alarm pushes")).toBe(false);
    push.stop();
  });

  it("tells an iPhone's browser outside the installed app to add it to the Home Screen, with no button that could not work", async () => {
    const { core } = fakeCore({ load: async () => SAVED });
    await render(core, pushUnavailable("install"));
    expect(host.textContent).toContain("Add this app to your Home Screen to receive alarm pushes");
    expect([...host.querySelectorAll("button")].some((b) => b.textContent === "Turn on alarm pushes")).toBe(false);
  });

  it("says when the preferences cannot be loaded, and tries again", async () => {
    let calls = 0;
    const { core } = fakeCore({ load: async () => (++calls === 1 ? Promise.reject(new CoreError("NETWORK", "Cannot reach the server. Check the connection.")) : SAVED) });
    await render(core);
    expect(host.querySelector('[role="alert"]')?.textContent).toContain("Cannot reach the server");
    await click([...host.querySelectorAll("button")].find((b) => b.textContent === "Try again")!);
    await settle();
    expect(switchNamed("Low Battery").getAttribute("aria-checked")).toBe("true");
  });
});
