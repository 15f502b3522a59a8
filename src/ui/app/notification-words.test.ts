import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batteryLowWords } from "../../../server/alerts/alarm-words.ts";
import { sendsTooMuchWords } from "../../../server/alerts/alerts.ts";
import { ENGLISH, write, type Reader, type TitleAndBody } from "../../../server/texts.ts";
import type { Notification } from "../../contract/entities.ts";
import { LANGUAGES, type Language } from "../../contract/language-values.ts";
import { startTexts } from "../../test-support/i18n.ts";
import { i18n } from "../i18n/i18n.ts";
import { notificationTexts } from "./notification-words.ts";

beforeAll(() => startTexts());
afterAll(() => startTexts());

/** Words of notifications the server makes: an alarm's, a device cut off, an escalated call (words within words), the demo's welcome, an account's. */
const WORDS: TitleAndBody[] = [
  batteryLowWords("Packing Cooler", 22.4),
  sendsTooMuchWords("Tunnel 2", { messages: 12_345, seconds: 10, perSecond: 50, cooldownMs: 90_000 }, true),
  {
    title: { key: "escalation.escalation", values: { title: batteryLowWords("Packing Cooler", 22.4).title, step: { key: "escalation.steps.backup" } } },
    body: batteryLowWords("Packing Cooler", 22.4).body,
  },
  { title: { key: "demo.welcome.title" }, body: { key: "demo.welcome.body", values: { mcus: 12 } } },
  { title: { key: "account.registerAttempt.title" }, body: { key: "account.registerAttempt.body", values: { email: "grower@example.com" } } },
];

/** A notification as the bell gets it, its stored texts unlike any the words say: what is shown comes from the words. */
const note = (words?: Notification["words"]): Notification => ({
  notification_id: 1,
  type: "battery_low",
  title: "stored title",
  body: "stored body",
  ...(words ? { words } : {}),
  read_status: false,
  createdAt: "2026-06-01T08:00:00.000Z",
});

/** A JSON file's texts by dotted key. */
function flatten(value: unknown, prefix = "", into = new Map<string, string>()): Map<string, string> {
  if (typeof value === "string") into.set(prefix, value);
  else for (const [k, v] of Object.entries(value as object)) flatten(v, prefix ? `${prefix}.${k}` : k, into);
  return into;
}
const textsOf = (language: Language, namespace: string): unknown => JSON.parse(readFileSync(new URL(`../../locales/${language}/${namespace}.json`, import.meta.url), "utf8"));

describe("a notification in the reader's words", () => {
  it("is written in English exactly as the server writes it for an English reader", () => {
    const en = i18n.getFixedT("en", "alarms");
    for (const words of WORDS) {
      expect(notificationTexts(en, note(words)), JSON.stringify(words)).toEqual({ title: write(words.title, ENGLISH), body: write(words.body, ENGLISH) });
    }
    expect(notificationTexts(en, note(WORDS[1]))).toEqual({
      title: 'MCU "Tunnel 2" sends too much',
      body: 'MCU "Tunnel 2" sends too much: 12,345 messages in 10 s, its limit is 50/s. It was disconnected for 90 seconds.',
    });
    expect(notificationTexts(en, note(WORDS[2])).title).toBe("Packing Cooler: battery low (nobody acknowledged it: calling backup)");
  });

  it("is written in Arabic with Arabic-Indic digits for a reader who reads those, whatever language it was stored in", async () => {
    const reader: Reader = { language: "ar", digits: "arab" };
    try {
      await startTexts(reader);
      const ar = i18n.getFixedT("ar", "alarms");
      for (const words of WORDS) {
        expect(notificationTexts(ar, note(words)), JSON.stringify(words)).toEqual({ title: write(words.title, reader), body: write(words.body, reader) });
      }
      // Said in Arabic, they read right to left like the page, though the title starts with a Latin name.
      expect(notificationTexts(ar, note(WORDS[0]))).toStrictEqual({ title: "Packing Cooler: البطارية منخفضة", body: "البطارية عند ٢٢%. استبدلها أو اشحنها قريبًا.", dir: undefined });
      expect(notificationTexts(ar, note(WORDS[3])).body).toBe("مزارعك التجريبية تعمل الآن: ١٢ وحدة MCU ترسل قراءاتها كل بضع ثوانٍ.");
    } finally {
      await startTexts();
    }
  });

  it("shows the stored texts of a notification without words, or with words this app does not know", () => {
    const en = i18n.getFixedT("en", "alarms");
    // Stored texts may be in another language than the page's: they take their own direction.
    expect(notificationTexts(en, note())).toEqual({ title: "stored title", body: "stored body", dir: "auto" });
    expect(notificationTexts(en, note({ title: { key: "account.somethingNew.title" }, body: { key: "demo.washDay.body", values: { room: "Tunnel 2" } } }))).toEqual({
      title: "stored title",
      body: "Clean and sanitise Tunnel 2 before the next flush.",
      dir: "auto",
    });
  });

  it("can say every text the server writes notifications from, in every language: the app's copy has every key of the server's", () => {
    for (const language of LANGUAGES) {
      const server = flatten(textsOf(language, "server"));
      const copy = flatten((textsOf(language, "alarms") as { serverTexts: unknown }).serverTexts);
      expect([...server.keys()].filter((key) => !copy.has(key)), `${language}: server texts missing from alarms:serverTexts`).toEqual([]);
    }
  });
});
