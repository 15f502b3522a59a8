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
export function notificationTexts(t: TFunction<"alarms">, n: Notification): { title: string; body: string } {
  return {
    title: (n.words && sayWords(t, n.words.title)) ?? n.title,
    body: (n.words && sayWords(t, n.words.body)) ?? n.body,
  };
}
