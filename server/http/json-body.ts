import type { FastifyInstance } from "fastify";
import { refusal } from "../errors.ts";

/** Our bodies nest a few levels (a profile's config is the deepest, at 3); this leaves room. */
export const MAX_JSON_DEPTH = 32;

/**
 * How deep `text`'s objects and arrays nest, counting only brackets outside strings; stops
 * counting once past `limit`. One pass over the text, before anything parses or walks it.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return deepest;
}

/**
 * JSON bodies go through Fastify's own parser (prototype-poisoning checks included), but only
 * after their nesting depth is checked: a body nested thousands deep would otherwise reach code
 * that recurses over it (the poisoning scan, validation) and fail as a 500.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    if (jsonDepth(body as string) > MAX_JSON_DEPTH) return done(refusal("BAD_REQUEST", "body_too_deep", "The request body is nested too deeply"), undefined);
    parseJson(req, body as string, done);
  });
}
