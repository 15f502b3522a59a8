/// <reference lib="webworker" />
import * as Comlink from "comlink";
import { serializeCoreError, toCoreError } from "../contract/core-error.ts";
import { createDataCore, type DataCore } from "./core.ts";
import type { EarlyFetches } from "./early-fetch.ts";
import { SessionEndedError, type SerializedSessionEnded } from "../contract/session-ended.ts";

/**
 * Serves the data core to the page over Comlink on the given endpoint (the worker's, with the calls
 * held while it loaded), with the responses the worker's entry requested early.
 */
export function serve(early: EarlyFetches, endpoint: Comlink.Endpoint): void {
  const core = createDataCore({ early });

  // Comlink keeps only message and name of a thrown Error: send the CoreError's fields as data.
  const exposed = Object.fromEntries(
    Object.entries(core).map(([name, fn]) => [
      name,
      async (...args: unknown[]) => {
        try {
          return await (fn as (...a: unknown[]) => unknown)(...args);
        } catch (err) {
          if (err instanceof SessionEndedError) throw { ...serializeCoreError(err), sessionEnded: true } satisfies SerializedSessionEnded;
          throw serializeCoreError(toCoreError(err));
        }
      },
    ]),
  ) as unknown as DataCore;

  Comlink.expose(exposed, endpoint);
  // When the page goes away its worker ends, and the socket with it.
}
