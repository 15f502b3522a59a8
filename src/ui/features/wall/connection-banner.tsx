import { formatReadingTime } from "../../components/dates.ts";
import { WifiOffIcon } from "../../components/icons.tsx";
import { useNow } from "../../components/use-now.ts";
import { useConnection, useOldestSavedAt } from "../../data/hooks.ts";
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
  const now = useNow(AGE_TICK_MS);
  // A wall opened while the server was down shows what this device saved, as old as that.
  const savedAt = useOldestSavedAt();
  const text =
    heardAt !== undefined
      ? `Connection lost — data from ${formatReadingTime(heardAt, new Date(now))}, ${agoText(now - heardAt)}. Reconnecting…`
      : savedAt !== null
        ? `Cannot reach the farm server — data saved on this device ${agoText(Math.max(now, Date.now()) - savedAt)}. Trying again…`
        : "Cannot reach the farm server. Trying again…";
  return (
    <div role="status" className="wall-banner">
      <WifiOffIcon aria-hidden="true" className="shrink-0" />
      <span>{text}</span>
    </div>
  );
}
