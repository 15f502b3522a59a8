import { isDigits, isLanguage } from "../../contract/language-values.ts";
import type { Session } from "../data/session.ts";
import { chooseLanguage, currentLocale } from "./i18n.ts";

/**
 * The signed-in person's language and digits are kept with their client on the server; when the
 * client the session holds says otherwise than the screen (a sign-in on a device set to another
 * language, a change made in another tab), the app follows it.
 */
export function followClientLanguage(session: Session): () => void {
  const follow = () => {
    const client = session.getClient() as { language?: unknown; digits?: unknown } | null;
    if (!client) return;
    const now = currentLocale();
    const language = isLanguage(client.language) ? client.language : now.language;
    const digits = isDigits(client.digits) ? client.digits : now.digits;
    if (language !== now.language || digits !== now.digits) void chooseLanguage({ language, digits });
  };
  follow();
  return session.subscribe(follow);
}
