import { afterAll, describe, expect, it } from "vitest";
import { CoreError, deserializeCoreError, serializeCoreError } from "../../contract/core-error.ts";
import { startTexts } from "../../test-support/i18n.ts";
import { ackText, fieldRefusalText, refusalText } from "./server-refusal.ts";
import { messageOf } from "./toasts.ts";

/** A refusal as the data core hands it over: the server's code, English message, reason and values. */
const refused = (code: CoreError["code"], message: string, why: Partial<Pick<CoreError, "reason" | "params">> = {}, fieldErrors: CoreError["fieldErrors"] = []) =>
  deserializeCoreError(serializeCoreError(new CoreError(code, message, 409, message, fieldErrors, why)));

describe("the server's refusals in the person's language", () => {
  afterAll(() => startTexts());

  const hasMcus = () => refused("CONFLICT", "This farm still has 3 MCUs. Move or delete them first.", { reason: "farm_has_mcus", params: { count: 3 } });

  it("shows the server's own message in English, to the letter, and the caller's words when it sent none", async () => {
    await startTexts({ language: "en", digits: "latn" });
    expect(messageOf(hasMcus(), "Delete failed")).toBe("This farm still has 3 MCUs. Move or delete them first.");
    expect(messageOf(new CoreError("NETWORK", "Cannot reach the server. Check the connection."), "Delete failed")).toBe("Delete failed");
    expect(messageOf(new Error("boom"), "Delete failed")).toBe("Delete failed");
  });

  it("says the reason in French, with its values and plural", async () => {
    await startTexts({ language: "fr", digits: "latn" });
    expect(messageOf(hasMcus(), "Échec de la suppression")).toBe("Cette ferme a encore 3 MCU. Déplacez-les ou supprimez-les d’abord.");
    expect(refusalText(refused("CONFLICT", "MAC address AA:BB:CC:DD:EE:FF is already registered", { reason: "mac_taken", params: { mac: "AA:BB:CC:DD:EE:FF" } }))).toBe(
      "L’adresse MAC AA:BB:CC:DD:EE:FF est déjà enregistrée",
    );
    expect(refusalText(refused("FORBIDDEN", "A Viewer on this farm cannot acknowledge alarms", { reason: "role_cannot", params: { role: "viewer", right: "acknowledgeAlarms" } }))).toBe(
      "Le rôle Observateur sur cette ferme ne permet pas d’acquitter les alarmes",
    );
    expect(refusalText(refused("RATE_LIMITED", "Too many attempts from your network. Try again in 30 seconds.", { reason: "too_many_attempts", params: { retry_seconds: 30 } }))).toBe(
      "Trop de tentatives depuis votre réseau. Réessayez dans 30 secondes.",
    );
  });

  it("says the reason in Arabic, in the digits the person chose", async () => {
    await startTexts({ language: "ar", digits: "arab" });
    expect(messageOf(hasMcus(), "تعذّر الحذف")).toBe("ما زالت في هذه المزرعة ٣ وحدات MCU. انقلها أو احذفها أولًا.");
    expect(refusalText(refused("GONE", "This invitation has expired: ask for a new one", { reason: "invitation_expired" }))).toBe("انتهت صلاحية هذه الدعوة: اطلب دعوة جديدة");
    expect(refusalText(refused("RATE_LIMITED", "Too many MCU claims were refused. Try again in 2 minutes.", { reason: "too_many_claims", params: { retry_seconds: 90 } }))).toBe(
      "رُفضت مطالبات كثيرة جدًا بوحدات MCU. حاول مجددًا بعد دقيقتين.",
    );
  });

  it("falls back to the coarse code's words for a refusal without a reason (an older or newer server), and to the caller's words without a refusal", async () => {
    await startTexts({ language: "fr", digits: "latn" });
    expect(messageOf(refused("CONFLICT", "Something new the server says"), "Échec")).toBe("Cela entre en conflit avec ce qui existe déjà");
    expect(messageOf(new CoreError("TIMEOUT", "The server did not answer in time"), "Échec")).toBe("Échec");
  });

  it("says each refused field in the person's language, and as the server wrote it in English", async () => {
    const field = { path: "username", message: "Username must be at most 50 characters", reason: "too_long", params: { max: 50 } } as const;
    await startTexts({ language: "ar", digits: "latn" });
    expect(fieldRefusalText(field)).toBe("يجب ألا يزيد على 50 حرفًا");
    expect(fieldRefusalText({ path: "x", message: "x is odd" })).toBe("تحقّق من القيم المُدخلة");
    await startTexts({ language: "en", digits: "latn" });
    expect(fieldRefusalText(field)).toBe("Username must be at most 50 characters");
  });

  it("says a refused switch in the person's language, and as the server wrote it in English", async () => {
    const ack = { ok: false, message: "Room A is offline", reason: "device_offline", params: { name: "Room A" } } as const;
    await startTexts({ language: "fr", digits: "latn" });
    expect(ackText(ack)).toBe("Room A est hors ligne");
    expect(ackText({ ok: false, message: "deviceId must be a string" })).toBe("La commande n’a pas pu être envoyée");
    await startTexts({ language: "en", digits: "latn" });
    expect(ackText(ack)).toBe("Room A is offline");
  });

  it("keeps the reason and its values across the worker's boundary", () => {
    const err = refused("CONFLICT", "m", { reason: "mcu_in_batch", params: { mcu: "Room A", batch: "Bags" } }, [{ path: "mcu_ids", message: "m", reason: "mcus_in_batch" }]);
    expect(err).toMatchObject({ reason: "mcu_in_batch", params: { mcu: "Room A", batch: "Bags" }, fieldErrors: [{ reason: "mcus_in_batch" }] });
  });
});
