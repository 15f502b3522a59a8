import { useId } from "react";
import { useTranslation } from "react-i18next";
import { DIGITS, LANGUAGE_NAMES, LANGUAGES, isDigits, isLanguage, type Digits, type Language } from "../../contract/language-values.ts";
import { chooseLanguage, currentLocale, useLocale } from "../i18n/i18n.ts";

/** Switches a signed-out screen's language (remembered on this device until someone signs in, then kept with their client). */
export const chooseSignedOutLanguage = (language: Language) => void chooseLanguage({ language, digits: currentLocale().digits });

const selectClass =
  "block rounded-lg border border-gray-300 bg-white ps-3 pe-8 py-1.5 text-sm text-gray-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 disabled:bg-gray-100";

/**
 * The app's language, each option named in itself (a person who cannot read the current language
 * still finds theirs) and marked with its language for screen readers.
 */
export function LanguageSelect({ onChoose, disabled = false, className = "" }: { onChoose: (language: Language) => void; disabled?: boolean; className?: string }) {
  const { t } = useTranslation("settings");
  const { language } = useLocale();
  const id = useId();
  return (
    <div className={`flex items-center gap-2 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-gray-700">
        {t("language.label")}
      </label>
      <select id={id} className={selectClass} value={language} disabled={disabled} onChange={(e) => isLanguage(e.target.value) && onChoose(e.target.value)}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Western (0-9) or Arabic-Indic (٠-٩) digits, for every number the app shows. */
export function DigitsSelect({ onChoose, disabled = false, className = "" }: { onChoose: (digits: Digits) => void; disabled?: boolean; className?: string }) {
  const { t } = useTranslation("settings");
  const { digits } = useLocale();
  const id = useId();
  return (
    <div className={`flex items-center gap-2 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-gray-700">
        {t("language.digits")}
      </label>
      <select id={id} className={selectClass} value={digits} disabled={disabled} onChange={(e) => isDigits(e.target.value) && onChoose(e.target.value)}>
        {DIGITS.map((d) => (
          <option key={d} value={d}>
            {t(`language.digitSystems.${d}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
