import { AppError } from "../errors.ts";
import { idParam } from "./validate.ts";

/** A client_id in a path or query must be the session's own: anything else is 403. */
export function ownClientId(raw: string | undefined, sessionClientId: number): number {
  const clientId = idParam(raw, "Client");
  if (clientId !== sessionClientId) throw new AppError("FORBIDDEN", "You can only access your own account");
  return clientId;
}
