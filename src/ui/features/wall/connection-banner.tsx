import { useTranslation } from "react-i18next";
import { formatReadingTime } from "../../components/dates.ts";
import { WifiOffIcon } from "../../components/icons.tsx";
import { useNow } from "../../components/use-now.ts";
import { useConnection, useOldestSavedAt } from "../../data/hooks.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { agoText } from "./wall-text.ts";

/** While the link is down the age moves on: said again every few seconds. */
const AGE_TICK_MS = 5_000;

/**
 * Says how old the wall's data is while the link to the server is down ("Connection lost — data
 * from 14:02:10, 3 min ago"), so a wall that looks calm is never a wall that stopped. The core
 * reconnects by itself; the banner goes when it has.
 */
export function ConnectionBanner() {
  const connection = useConnection();
  // A first connection that is only being made is the tiles' to tell ("Waiting for live data…"):
  // a banner for the split second it takes would flash at every start.
  if (connection.state !== "reconnecting") return null;
  return <LinkDown heardAt={connection.heardAt} />;
}

function LinkDown({ heardAt }: { heardAt: number | undefined }) {
  const { t } = useTranslation("wall");
  useLocale(); // re-renders on a change of digits, which the time and the age are written in
  const now = useNow(AGE_TICK_MS);
  // A wall opened while the server was down shows what this device saved, as old as that.
  const savedAt = useOldestSavedAt();
  const text =
    heardAt !== undefined
      ? t("banner.lost", { time: formatReadingTime(heardAt, new Date(now)), ago: agoText(now - heardAt) })
      : savedAt !== null
        ? t("banner.saved", { ago: agoText(Math.max(now, Date.now()) - savedAt) })
        : t("banner.unreachable");
  return (
    <div role="status" className="wall-banner">
      <WifiOffIcon aria-hidden="true" className="shrink-0" />
      <span>{text}</span>
    </div>
  );
}
