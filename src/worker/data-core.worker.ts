/// <reference lib="webworker" />
/**
 * The data core's worker entry. Its first lines are small: they start the requests the page asked
 * for (the stored client's first lists) and hold the page's calls, then the core itself loads
 * (schemas, socket, pipeline) and serves the held calls in order.
 */
import { createEarlyFetches, isEarlyFetchMessage } from "./early-fetch.ts";

const earlyFetches = createEarlyFetches();

const held: MessageEvent[] = [];
function hold(ev: MessageEvent) {
  if (isEarlyFetchMessage(ev.data)) earlyFetches.start(ev.data);
  else held.push(ev);
}
self.addEventListener("message", hold);

const { serve } = await import("./serve.ts");
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
