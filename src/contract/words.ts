import { scope } from "arktype";

/**
 * Words as the API carries them (`Words`, `AlarmWords` in alarms-values.ts), on an alarm and a
 * notification: words may name words of their own, to any depth.
 */
export const words = scope({
  wordsNumber: { num: "number", "decimals?": "number", "grouped?": "boolean" },
  words: { key: "string", "values?": "Record<string, string | number | wordsNumber | words>", "count?": "number" },
  alarmWords: { title: "words", body: "words" },
}).export();
