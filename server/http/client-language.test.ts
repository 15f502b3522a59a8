import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../db/migrate.ts";
import { createTestServer, openTestDatabase, registration, type TestServer } from "../test-support/test-server.ts";

/** The person's language and digits, kept with their client (migration 019): chosen at registration, changed in Settings. */
describe("a client's language", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it("is English with Western digits for a registration that does not say", async () => {
    const c = await server.signUp();
    expect((await c.get("/api/clients/me")).json()).toMatchObject({ client_id: c.clientId, language: "en", digits: "latn" });
  });

  it("is saved as registered, and answered with the client at sign-in", async () => {
    const reg = registration({ language: "ar", digits: "arab" });
    expect((await server.app.inject({ method: "POST", url: "/api/clients", payload: reg })).statusCode).toBe(201);
    const login = await server.app.inject({ method: "POST", url: "/api/clients/login", payload: { username: reg.username, password: reg.password } });
    expect(login.json().client).toMatchObject({ username: reg.username, language: "ar", digits: "arab" });
  });

  it("changes through PUT /api/clients/{client_id}, each field on its own, the rest of the client kept", async () => {
    const c = await server.signUp({ language: "fr" });
    const changed = await c.put(`/api/clients/${c.clientId}`, { language: "ar" });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ username: c.registration.username, language: "ar", digits: "latn" });
    expect((await c.put(`/api/clients/${c.clientId}`, { digits: "arab" })).json()).toMatchObject({ language: "ar", digits: "arab" });
    // The app sends the whole stored client back (a push token saved): its language goes along unchanged.
    const me = (await c.get("/api/clients/me")).json();
    expect((await c.put(`/api/clients/${c.clientId}`, { ...me, fcm_token: "token-1" })).json()).toMatchObject({ language: "ar", digits: "arab", fcm_token: "token-1" });
  });

  it("refuses a language or digits the app does not have, as any invalid field", async () => {
    const c = await server.signUp();
    const language = await c.put(`/api/clients/${c.clientId}`, { language: "de" });
    expect(language.statusCode).toBe(400);
    expect(language.json()).toEqual({
      code: "VALIDATION",
      message: "language must be one of en, fr, ar",
      reason: "invalid_language",
      errors: [{ path: "language", message: "language must be one of en, fr, ar", reason: "invalid_language" }],
    });
    const digits = await c.put(`/api/clients/${c.clientId}`, { digits: "roman" });
    expect(digits.json()).toMatchObject({ code: "VALIDATION", reason: "invalid_digits", errors: [{ path: "digits" }] });
    expect((await c.put(`/api/clients/${c.clientId}`, { language: 3 })).json()).toMatchObject({ code: "VALIDATION", errors: [{ path: "language" }] });
    const registered = await server.app.inject({ method: "POST", url: "/api/clients", payload: registration({ language: "EN" }) });
    expect(registered.statusCode).toBe(400);
    expect(registered.json()).toMatchObject({ code: "VALIDATION", errors: [{ path: "language", reason: "invalid_language" }] });
    expect((await c.get("/api/clients/me")).json()).toMatchObject({ language: "en", digits: "latn" });
  });
});

// A PGlite of its own, migrated in two steps: slow on a loaded machine, so more than the project's 20 s.
describe("migration 019", { timeout: 60_000 }, () => {
  it("gives the clients stored before it English with Western digits, and the database refuses any other value", async () => {
    const { db, drop } = await openTestDatabase();
    try {
      await migrate(db, { before: "019" });
      const [before] = await db.query<{ client_id: number }>("insert into clients (username, email, password_hash) values ('old', 'old@example.com', 'x') returning client_id");
      expect(await migrate(db)).toContain("019_client_language.sql");
      const [row] = await db.query<{ language: string; digits: string }>("select language, digits from clients where client_id = $1", [before!.client_id]);
      expect(row).toEqual({ language: "en", digits: "latn" });
      await expect(db.query("update clients set language = 'de' where client_id = $1", [before!.client_id])).rejects.toThrow();
      await expect(db.query("update clients set digits = 'roman' where client_id = $1", [before!.client_id])).rejects.toThrow();
      const [words] = await db.query<{ column_name: string }>("select column_name from information_schema.columns where table_name = 'alerts' and column_name = 'words' and table_schema = current_schema()");
      expect(words).toEqual({ column_name: "words" });
    } finally {
      await db.close();
      await drop();
    }
  });
});
