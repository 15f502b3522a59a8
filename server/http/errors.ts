import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ErrorReason } from "../../src/contract/error-reasons.ts";
import { HTTP_STATUS_OF, type ApiErrorBody } from "../../src/contract/errors.ts";
import { AppError, refusal } from "../errors.ts";

/** An error answer as the server writes it: always with its reason. */
export type ServerErrorBody = ApiErrorBody & { reason: ErrorReason };

/** What a 500 says: nothing of what went wrong inside (the log keeps that). */
export const INTERNAL_ANSWER: ServerErrorBody = { code: "INTERNAL", message: "Something went wrong on the server. Please try again.", reason: "server_error" };

/** What a request reaching a node that is shutting down is answered (503): another node, or this one started again, will take it. */
export const STOPPING_ANSWER: ServerErrorBody = { code: "INTERNAL", message: "The server is shutting down", reason: "server_stopping" };

/** Fastify's own errors for bad input, turned into our codes and messages. */
function fromFastify(err: FastifyError): AppError | undefined {
  switch (err.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return refusal("BAD_REQUEST", "invalid_json", "The request body is not valid JSON");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return refusal("UNSUPPORTED_MEDIA_TYPE", "json_only", "Send the request body as application/json");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return refusal("PAYLOAD_TOO_LARGE", "body_too_large", "The request body is too large");
    case "FST_ERR_BAD_URL":
    case "FST_ERR_MAX_PARAM_LENGTH":
      return refusal("BAD_REQUEST", "bad_url", "The request's address is not valid");
  }
  // PostgreSQL's data exceptions (class 22: a value it cannot store or compare) mean bad input
  // that validation let through; the user gets a 400, the log keeps the detail.
  if (/^22[0-9A-Z]{3}$/.test((err as { code?: string }).code ?? "")) {
    return refusal("BAD_REQUEST", "value_not_storable", "The request contains a value that cannot be stored");
  }
  // A route's rate limit without words of its own (@fastify/rate-limit's default error): still a 429.
  if (err.statusCode === 429) return refusal("RATE_LIMITED", "too_many_requests", "Too many requests. Please slow down.");
  // JSON.parse errors (including __proto__ / constructor poisoning) arrive as 400s without a code.
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return err.statusCode === 400 ? refusal("BAD_REQUEST", "invalid_json", "The request body is not valid JSON") : refusal("BAD_REQUEST", "request_refused", "The request was refused");
  }
  return undefined;
}

/** The answer to an error: a user-facing 4xx for bad input, an opaque 500 for everything else. */
export function answerError(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const known = err instanceof AppError ? err : fromFastify(err);
  if (known) {
    const body: ApiErrorBody = { code: known.code, message: known.message };
    if (known.reason) body.reason = known.reason;
    if (known.params) body.params = known.params;
    if (known.errors) body.errors = known.errors;
    return reply.status(HTTP_STATUS_OF[known.code]).send(body);
  }
  req.log.error({ err }, "request failed");
  return reply.status(500).send(INTERNAL_ANSWER);
}

/**
 * The one error handler. Its answers, and those of the server's own refusals below (no such
 * endpoint, shutting down), name a reason the app translates. Fastify's `frameworkErrors` (a bad
 * URL, a path segment too long) should be `answerError` too.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(answerError);
}

/** The answer to a request for an endpoint the server does not have (404). */
export const noSuchEndpoint = (method: string, path: string): ServerErrorBody => ({
  code: "NOT_FOUND",
  message: `No such endpoint: ${method} ${path}`,
  reason: "no_such_endpoint",
  params: { method, path },
});

/**
 * Refuses requests once the server is closing, with our answer (Fastify's own 503 has neither our
 * code nor a reason): for this, Fastify's `return503OnClosing` must be off. Connections are
 * closed after the answer, so a client's next request goes to a node that is not stopping.
 */
export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onRequest", async (_req, reply) => {
    if (closing) return reply.status(503).header("connection", "close").send(STOPPING_ANSWER);
  });
}
