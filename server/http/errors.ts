import type { FastifyError, FastifyInstance } from "fastify";
import { HTTP_STATUS_OF, type ApiErrorBody } from "../../src/contract/errors.ts";
import { AppError } from "../errors.ts";

/** Fastify's own errors for bad input, turned into our codes and messages. */
function fromFastify(err: FastifyError): AppError | undefined {
  switch (err.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new AppError("BAD_REQUEST", "The request body is not valid JSON");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the request body as application/json");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new AppError("PAYLOAD_TOO_LARGE", "The request body is too large");
  }
  // PostgreSQL's data exceptions (class 22: a value it cannot store or compare) mean bad input
  // that validation let through; the user gets a 400, the log keeps the detail.
  if (/^22[0-9A-Z]{3}$/.test((err as { code?: string }).code ?? "")) {
    return new AppError("BAD_REQUEST", "The request contains a value that cannot be stored");
  }
  // JSON.parse errors (including __proto__ / constructor poisoning) arrive as 400s without a code.
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return new AppError("BAD_REQUEST", err.statusCode === 400 ? "The request body is not valid JSON" : "The request was refused");
  }
  return undefined;
}

/** The one error handler: a user-facing 4xx for bad input, an opaque 500 for everything else. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const known = err instanceof AppError ? err : fromFastify(err);
    if (known) {
      const body: ApiErrorBody = { code: known.code, message: known.message };
      if (known.reason) body.reason = known.reason;
      if (known.params) body.params = known.params;
      if (known.errors) body.errors = known.errors;
      return reply.status(HTTP_STATUS_OF[known.code]).send(body);
    }
    req.log.error({ err }, "request failed");
    const body: ApiErrorBody = { code: "INTERNAL", message: "Something went wrong on the server. Please try again." };
    return reply.status(500).send(body);
  });
}
