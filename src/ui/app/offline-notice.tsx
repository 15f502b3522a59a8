import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router-dom";
import { CoreError } from "../../contract/core-error.ts";
import { useNow } from "../components/use-now.ts";
import { useConnection, useOldestSavedAt } from "../data/hooks.ts";
import { useAppData } from "../data/provider.tsx";
import { savedAgeText } from "../data/saved-age.ts";
import { useLocale } from "../i18n/i18n.ts";

/** Asks the server (through the data core) whether it answers at all: any HTTP answer counts. */
async function serverAnswers(me: () => Promise<unknown>): Promise<boolean> {
  try {
    await me();
    return true;
  } catch (err) {
    return !(err instanceof CoreError && (err.code === "NETWORK" || err.code === "TIMEOUT"));
  }
}

/**
 * A clear notice while the app runs from its offline cache: the device is offline, or the server
 * cannot be reached (navigator.onLine says nothing about a farm server that is down).
 */
export function OfflineNotice() {
  const { t } = useTranslation("common");
  // The saved data's age is in the person's digits: a change of digits alone renders it again.
  useLocale();
  const { core } = useAppData();
  const connection = useConnection();
  const [online, setOnline] = useState(() => navigator.onLine);
  const [reachable, setReachable] = useState(true);
  const savedAt = useOldestSavedAt();
  const now = useNow();

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const probe = async () => {
      const ok = await serverAnswers(() => core.me());
      if (cancelled) return;
      setReachable(ok);
      // Keep asking while it does not answer; stop once it does.
      if (!ok) timer = setTimeout(probe, 10_000);
    };
    const onOnline = () => {
      setOnline(true);
      clearTimeout(timer);
      void probe();
    };
    const onOffline = () => setOnline(false);
    window.addEventListener("online", onOnline);
    window.addEventListener("offline", onOffline);
    void probe();
    return () => {
      cancelled = true;
      clearTimeout(timer);
      window.removeEventListener("online", onOnline);
      window.removeEventListener("offline", onOffline);
    };
  }, [core]);

  useEffect(() => {
    if (connection.state === "connected") setReachable(true);
  }, [connection.state]);

  // The wall view says it in its own banner, with how old its data is, and keeps its tiles uncovered.
  const onWall = useLocation().pathname === "/wall";
  const offline = !online || !reachable || connection.state === "reconnecting";
  if (!offline || onWall) return null;
  return (
    <div role="status" className="fixed bottom-4 inset-x-4 mx-auto z-40 max-w-xl rounded-xl bg-gray-900 text-white px-4 py-3 shadow-lg text-sm 4xl:text-xl">
      {!online ? t("offline.deviceOffline") : t("offline.serverUnreachable")}{" "}
      {savedAt === null ? t("offline.showingSaved") : t("offline.showingSavedAge", { age: savedAgeText(savedAt, Math.max(now, Date.now())) })}
    </div>
  );
}
