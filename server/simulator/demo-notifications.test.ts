import { afterEach, describe, expect, it } from "vitest";
import { createPasswordHasher } from "../auth/password.ts";
import type { Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { openTestDatabase } from "../test-support/test-server.ts";
import { notificationsRepo } from "../db/notifications-repo.ts";
import { ENGLISH, write, type Reader, type Words } from "../texts.ts";
import { DEMO_LOGIN, ensureDemo } from "./demo.ts";

/** The demo's seeded notifications, oldest first, and the alarm its low battery opened (its own title and body). */
async function seeded(reader?: Reader) {
  const opened = await openTestDatabase();
  dropLater = opened.drop;
  const db: Database = opened.db;
  await migrate(db);
  await ensureDemo(db, createPasswordHasher({ log2N: 10 }), () => new Date("2026-06-01T08:00:00Z"), reader);
  const [client] = await db.query<{ client_id: number; language: string; digits: string }>("select client_id, language, digits from clients where username = $1", [DEMO_LOGIN.username]);
  const notes = await db.query<{ type: string; title: string; body: string }>("select type, title, body from notifications where client_id = $1 order by created_at", [client!.client_id]);
  const [alarm] = await db.query<{ title: string; body: string }>("select title, body from alerts where client_id = $1 and type = 'battery_low'", [client!.client_id]);
  return { db, client: client!, notes, alarm: alarm! };
}

let dropLater: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dropLater?.();
  dropLater = undefined;
});

describe("the demo's seeded notifications", () => {
  it("read in English for a demo person who reads English, as they always did", async () => {
    const { client, notes, alarm } = await seeded();
    expect(client).toMatchObject({ language: "en", digits: "latn" });
    expect(notes).toEqual([
      { type: "subscribe", title: "Welcome to Mushroom Farm", body: "Your demo farms are live: 12 MCUs report every few seconds." },
      { type: "wash", title: "Wash day", body: "Clean and sanitise Tunnel 2 before the next flush." },
      { type: "battery_low", title: "Packing Cooler: battery low", body: "Battery at 24%. Replace or charge it soon." },
    ]);
    expect(alarm).toEqual({ title: "Packing Cooler: battery low", body: "Battery at 24%. Replace or charge it soon." });
  });

  it("are written in the language and digits the demo person reads, the alarm's own words staying the server's English", async () => {
    const { client, notes, alarm } = await seeded({ language: "ar", digits: "arab" });
    expect(client).toMatchObject({ language: "ar", digits: "arab" });
    expect(notes.map((n) => n.type)).toEqual(["subscribe", "wash", "battery_low"]);
    expect(notes[0]).toMatchObject({ title: "مرحبًا بك في مزرعة الفطر", body: "مزارعك التجريبية تعمل الآن: ١٢ وحدة MCU ترسل قراءاتها كل بضع ثوانٍ." });
    expect(notes[1]).toMatchObject({ title: "يوم الغسيل", body: "نظّف Tunnel 2 وعقّمه قبل الدفعة التالية." });
    expect(notes[2]!.body).toContain("٢٤");
    expect(alarm).toEqual({ title: "Packing Cooler: battery low", body: "Battery at 24%. Replace or charge it soon." });
  });

  it("keep the words they were written from, so that a person who signs in reading another language reads them in theirs", async () => {
    const { db, client } = await seeded();
    const listed = (await notificationsRepo(db).list(client.client_id)).reverse();
    expect(listed.map((n) => n.words?.title.key)).toEqual(["demo.welcome.title", "demo.washDay.title", "alarms.batteryLow.title"]);
    for (const n of listed) {
      const words = n.words!;
      // The words say what was written: in English, the stored texts themselves.
      expect({ title: write(words.title as Words, ENGLISH), body: write(words.body as Words, ENGLISH) }).toEqual({ title: n.title, body: n.body });
    }
    const arabic = { language: "ar", digits: "arab" } as const;
    expect(write(listed[0]!.words!.body as Words, arabic)).toBe("مزارعك التجريبية تعمل الآن: ١٢ وحدة MCU ترسل قراءاتها كل بضع ثوانٍ.");
    // The low battery's notification has the words its alarm keeps.
    const [alarm] = await db.query<{ words: unknown }>("select words from alerts where client_id = $1 and type = 'battery_low'", [client.client_id]);
    expect(listed[2]!.words).toEqual(alarm!.words);
  });

  it("in French with Western digits", async () => {
    const { notes } = await seeded({ language: "fr", digits: "latn" });
    expect(notes.slice(0, 2)).toEqual([
      { type: "subscribe", title: "Bienvenue sur Ferme à champignons", body: "Vos fermes de démonstration sont en service : 12 MCU envoient leurs mesures toutes les quelques secondes." },
      { type: "wash", title: "Jour de lavage", body: "Nettoyez et désinfectez Tunnel 2 avant la prochaine volée." },
    ]);
  });
});
