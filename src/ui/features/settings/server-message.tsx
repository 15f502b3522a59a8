import { CoreError } from "../../../contract/core-error.ts";
import { failureText } from "../../components/server-refusal.ts";

/**
 * SPEC §8 gives the Settings failures a fixed toast ("Update profile Failed", "Update password
 * Failed"); the server's reason (e.g. "Password must be at least 8 characters") is shown under
 * the form so the client knows what to change.
 */
export function serverMessageOf(err: unknown): string | null {
  return err instanceof CoreError ? failureText(err) : null;
}

export function ServerMessage({ text }: { text: string | null }) {
  return text ? (
    <p role="alert" className="text-sm text-red-700 bg-red-50 rounded-lg px-3 py-2 sm:self-stretch">
      {text}
    </p>
  ) : null;
}
