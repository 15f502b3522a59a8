import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Client } from "../../../contract/entities.ts";
import type { Digits, Language } from "../../../contract/language-values.ts";
import { DigitsSelect, LanguageSelect } from "../../components/language-select.tsx";
import { notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import { chooseLanguage, currentLocale } from "../../i18n/i18n.ts";
import { ServerMessage, serverMessageOf } from "./server-message.tsx";

/**
 * The person's language and digits: the screen changes at once, and the choice is kept with their
 * client, so their other devices, and what the server sends them (notifications, alarm pushes),
 * follow it. A failed save puts the screen back as the server still has it.
 */
export function LanguageSettings({ client }: { client: Client }) {
  const { core, session } = useAppData();
  const { t } = useTranslation("settings");
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  async function save(next: { language?: Language; digits?: Digits }) {
    const before = currentLocale();
    const choice = { language: next.language ?? before.language, digits: next.digits ?? before.digits };
    setSaving(true);
    setRefusal(null);
    await chooseLanguage(choice);
    try {
      session.setClient(await core.updateClient(client.client_id, { client_id: client.client_id, ...choice }));
    } catch (err) {
      await chooseLanguage({ language: before.language, digits: before.digits });
      notify.error(t("languageSection.failed"));
      setRefusal(serverMessageOf(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <section aria-labelledby="language-settings-title" className="mt-6 border-t border-gray-200 pt-5">
      <h2 id="language-settings-title" className="text-base font-semibold text-gray-900">
        {t("languageSection.title")}
      </h2>
      <p className="mt-1 mb-3 text-sm text-gray-600">{t("languageSection.note")}</p>
      <div className="flex flex-wrap gap-x-6 gap-y-3">
        <LanguageSelect disabled={saving} onChoose={(language) => void save({ language })} />
        <DigitsSelect disabled={saving} onChoose={(digits) => void save({ digits })} />
      </div>
      <div className="mt-2">
        <ServerMessage text={refusal} />
      </div>
    </section>
  );
}
