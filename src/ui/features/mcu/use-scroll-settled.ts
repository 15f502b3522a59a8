import { useEffect, useState } from "react";

/** How long the page must not have scrolled for a scroll to count as over. */
const SETTLE_MS = 150;

let scrolling = false;
let settleTimer: ReturnType<typeof setTimeout> | undefined;
const waiting = new Set<() => void>();
let listening = false;

function onScroll() {
  scrolling = true;
  clearTimeout(settleTimer);
  settleTimer = setTimeout(() => {
    scrolling = false;
    for (const fn of [...waiting]) fn();
  }, SETTLE_MS);
}

/**
 * False while the page scrolls at mount, true (for good) once it has settled, or at once when it
 * is still. One scroll listener for the whole page, not one per card.
 *
 * For a part that is costly to create and that nobody can use while the list flies by: a card
 * mounted in the middle of a scroll makes it when the scroll stops, or never if it has gone off the
 * screen by then.
 */
export function useScrollSettled(): boolean {
  if (!listening && typeof window !== "undefined") {
    listening = true;
    window.addEventListener("scroll", onScroll, { passive: true });
  }
  const [settled, setSettled] = useState(() => !scrolling);
  useEffect(() => {
    if (settled) return;
    const done = () => setSettled(true);
    if (!scrolling) return done();
    waiting.add(done);
    return () => void waiting.delete(done);
  }, [settled]);
  return settled;
}
