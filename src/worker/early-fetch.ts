/**
 * The lists a signed-in screen starts from, requested by the worker's first lines while the rest of
 * the data core (schemas, socket, pipeline) is still loading, so the network and the evaluation
 * overlap instead of following each other. The page names the URLs (it knows the stored client);
 * the core's REST client takes an early response for the same URL once, and what no one takes
 * within EARLY_FOR_MS is dropped. Imports nothing: it is part of the worker's first file.
 */

/** What the page posts to the worker as it starts it: the first lists of the client stored from the last visit. */
export interface EarlyFetchMessage {
  kind: "early-fetch";
  urls: string[];
  /** The one of `urls` that is the MCU list's head (a first screen of cards can be sent from it). */
  head?: string;
}

const EARLY_FOR_MS = 15_000;
/** As long as the core's own requests may take. */
const TIMEOUT_MS = 30_000;
const MAX_URLS = 4;

export function isEarlyFetchMessage(data: unknown): data is EarlyFetchMessage {
  const d = data as Partial<EarlyFetchMessage> | null;
  return (
    typeof d === "object" &&
    d !== null &&
    d.kind === "early-fetch" &&
    Array.isArray(d.urls) &&
    d.urls.length <= MAX_URLS &&
    d.urls.every((u) => typeof u === "string") &&
    (d.head === undefined || d.urls.includes(d.head))
  );
}

export interface EarlyFetches {
  /**
   * Starts the requests; `onHead` gets the head's JSON body if it answers 200 (the response stays
   * whole for `take`). Answers when the head has been read (or failed), if the message names one.
   */
  start(message: EarlyFetchMessage, onHead?: (body: unknown) => void): Promise<void> | undefined;
  /** The early response for this URL (a GET), once; undefined if there is none or it is stale. */
  take(url: string): Promise<Response> | undefined;
  /** Forgets them all (the session changed). */
  clear(): void;
}

export function createEarlyFetches(doFetch: typeof fetch = globalThis.fetch.bind(globalThis), now: () => number = () => Date.now()): EarlyFetches {
  const pending = new Map<string, { response: Promise<Response>; at: number }>();
  return {
    start({ urls, head }, onHead) {
      let headRead: Promise<void> | undefined;
      for (const url of urls) {
        const response = doFetch(url, { credentials: "include", signal: AbortSignal.timeout(TIMEOUT_MS) });
        // Not taken, its failure is no one's: the core's own request reports it.
        response.catch(() => undefined);
        pending.set(url, { response, at: now() });
        // Read from a copy made as the answer comes, before the core (which takes it later) reads it.
        if (url === head && onHead) {
          headRead = response
            .then((res) => (res.ok ? res.clone().json() : undefined))
            .then((body: unknown) => void (body !== undefined && onHead(body)))
            .catch(() => undefined);
        }
      }
      return headRead;
    },
    take(url) {
      const early = pending.get(url);
      pending.delete(url);
      return early && now() - early.at <= EARLY_FOR_MS ? early.response : undefined;
    },
    clear: () => pending.clear(),
  };
}
