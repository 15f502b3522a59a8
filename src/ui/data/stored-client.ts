import type { Client } from "../../contract/entities.ts";
import { isDigits, isLanguage } from "../../contract/language-values.ts";

/** SPEC §3: the signed-in client is kept in browser storage under this key (no secret in it). */
export const CLIENT_STORAGE_KEY = "client";

const STRING_FIELDS = ["username", "email", "mobile", "country", "address", "createdAt", "updatedAt"] as const;

/**
 * The stored client if it has the shape of SPEC §3's Client, else null. Checked field by field
 * rather than with the contract's schema: the page reads it at start, and building the schema
 * library's types there cost the first screen ~0.4 s on a busy machine (the worker, which checks
 * every answer of the server, builds them anyway).
 */
export function storedClient(storage: Storage): Client | null {
  try {
    const raw = storage.getItem(CLIENT_STORAGE_KEY);
    const c = raw ? (JSON.parse(raw) as Record<string, unknown> | null) : null;
    if (typeof c !== "object" || c === null) return null;
    if (!(typeof c.client_id === "number" && Number.isSafeInteger(c.client_id))) return null;
    if (!STRING_FIELDS.every((k) => typeof c[k] === "string")) return null;
    if (!(c.fcm_token === null || typeof c.fcm_token === "string")) return null;
    // A tab of the app from before clients kept their language stored the client without it: still
    // the signed-in person (the screen keeps its own choice until the server's client replaces it).
    if (!(c.language === undefined || isLanguage(c.language)) || !(c.digits === undefined || isDigits(c.digits))) return null;
    return c as unknown as Client;
  } catch {
    return null;
  }
}
