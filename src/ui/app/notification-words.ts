import type { TFunction } from "i18next";
import type { Notification } from "../../contract/entities.ts";
import { sayWords } from "../features/alarms/alarm-words.ts";

/**
 * A notification's title and body in the reader's language and digits now. The server stores them
 * as written for the person when it was made (the demo's seed in the language the demo account
 * held, older notifications in the language a person read then), beside the words they say; the
 * words are said again here as an alarm's are. A notification stored without words (or with words
 * this app cannot say) shows its stored texts.
 */
export function notificationTexts(t: TFunction<"alarms">, n: Notification): { title: string; body: string; dir: "auto" | undefined } {
  const title = n.words ? sayWords(t, n.words.title) : undefined;
  const body = n.words ? sayWords(t, n.words.body) : undefined;
  return {
    title: title ?? n.title,
    body: body ?? n.body,
    // Said in the reader's language, they read in the page's direction (an Arabic title starting
    // with an MCU's Latin name stays right to left); stored texts may be in another language, so
    // they take the direction of their own first letters.
    dir: title != null && body != null ? undefined : "auto",
  };
}
