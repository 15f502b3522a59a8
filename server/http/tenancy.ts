import { refusal } from "../errors.ts";
import { idParam } from "./validate.ts";

/** A client_id in a path or query must be the session's own: anything else is 403. */
export function ownClientId(raw: string | undefined, sessionClientId: number): number {
  const clientId = idParam(raw, "Client");
  if (clientId !== sessionClientId) throw refusal("FORBIDDEN", "own_account_only", "You can only access your own account");
  return clientId;
}
