import { useEffect, useState } from "react";

/**
 * One clock for every card of the page: "5m ago" texts move on together, without a timer per
 * MCU. Minutes are the finest unit shown, so half a minute is fine enough (SPEC §9's 30 s tick).
 */
export function useNow(tickMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(id);
  }, [tickMs]);
  return now;
}
