/// <reference lib="webworker" />
/**
 * The data core's worker entry. Its first lines are small: they start the requests the page asked
 * for (the stored client's first lists) and hold the page's calls, then the core itself loads
 * (schemas, socket, pipeline) and serves the held calls in order.
 *
 * A returning farmer's first screen of cards comes from here: the core's code takes ~0.5-0.8 s to
 * evaluate on a slow machine, in one task, and an answer that arrives meanwhile waits for it. So
 * the core loads once the MCU list's head has been read and its records sent to the page (see
 * first-mcus.ts), or after FIRST_SCREEN_WAIT_MS if the head is slower than that; the page renders
 * those cards while the core evaluates. Without a stored client nothing waits.
 */
import { firstMcus, type FirstMcusMessage } from "../contract/first-mcus.ts";
import { cardView } from "../streams/card-view.ts";
import { managerCardView } from "../streams/mcu-manager-view.ts";
import { createEarlyFetches, isEarlyFetchMessage } from "./early-fetch.ts";

const FIRST_SCREEN_WAIT_MS = 800;
/** The page posts its early requests as it creates this worker; a worker started otherwise gets a call first. */
const FIRST_MESSAGE_WAIT_MS = 100;

const earlyFetches = createEarlyFetches();
let coreUp = false;

/** The first screen of cards, sent while the core still loads (once it is up, the core answers the screen itself). */
function sendFirstMcus(body: unknown) {
  const mcus = coreUp ? null : firstMcus(body);
  if (!mcus) return;
  // The cards render views only: those of the records alone (nothing live has come yet), made by
  // the functions the core makes them with.
  const now = Date.now();
  const cards = mcus.map((m) => cardView(m, undefined));
  const managerCards = mcus.map((m) => managerCardView(m, undefined, now));
  self.postMessage({ kind: "first-mcus", mcus, cards, managerCards } satisfies FirstMcusMessage);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
let firstMessage: () => void = () => {};
const firstMessageCame = new Promise<void>((resolve) => (firstMessage = resolve));
let headRead: Promise<void> | undefined;

const held: MessageEvent[] = [];
function hold(ev: MessageEvent) {
  if (isEarlyFetchMessage(ev.data)) headRead = earlyFetches.start(ev.data, sendFirstMcus);
  else held.push(ev);
  firstMessage();
}
self.addEventListener("message", hold);

await Promise.race([firstMessageCame, delay(FIRST_MESSAGE_WAIT_MS)]);
if (headRead) await Promise.race([headRead, delay(FIRST_SCREEN_WAIT_MS)]);
const { serve } = await import("./serve.ts");
coreUp = true;
self.removeEventListener("message", hold);
const deliver = (listener: EventListenerOrEventListenerObject, ev: MessageEvent) => (typeof listener === "function" ? listener(ev) : listener.handleEvent(ev));
serve(earlyFetches, {
  postMessage: (message: unknown, transfer: Transferable[] = []) => self.postMessage(message, transfer),
  addEventListener(type, listener) {
    self.addEventListener(type, listener);
    // The calls made while the core loaded, delivered first and in order.
    if (type === "message") for (const ev of held.splice(0)) deliver(listener, ev);
  },
  removeEventListener: (type, listener) => self.removeEventListener(type, listener),
});
