import { useId } from "react";
import { useTranslation } from "react-i18next";
import { DIGITS, LANGUAGE_NAMES, LANGUAGES, type Digits, type Language } from "../../contract/language-values.ts";
import { chooseLanguage, currentLocale, useLocale } from "../i18n/i18n.ts";

/** Switches a signed-out screen's language (remembered on this device until someone signs in, then kept with their client). */
export const chooseSignedOutLanguage = (language: Language) => void chooseLanguage({ language, digits: currentLocale().digits });

const selectClass =
  "block rounded-lg border border-gray-300 bg-white ps-3 pe-8 py-1.5 text-sm text-gray-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 disabled:bg-gray-100";

/** A labelled select of the locale's choices, on one line (the signed-out screens' corner, Settings' row). */
function LocaleSelect<T extends string>({ label, value, options, onChoose, disabled, className }: { label: string; value: T; options: readonly { value: T; text: string; lang?: string }[]; onChoose: (value: T) => void; disabled: boolean; className: string }) {
  const id = useId();
  return (
    <div className={`flex items-center gap-2 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-gray-700">
        {label}
      </label>
      <select id={id} className={selectClass} value={value} disabled={disabled} onChange={(e) => onChoose(options.find((o) => o.value === e.target.value)!.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value} lang={o.lang}>
            {o.text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Each language named in itself, for a person who cannot read the current one; marked with its language for screen readers. */
const LANGUAGE_OPTIONS = LANGUAGES.map((l) => ({ value: l, text: LANGUAGE_NAMES[l], lang: l }));

/** The app's language. */
export function LanguageSelect({ onChoose, disabled = false, className = "" }: { onChoose: (language: Language) => void; disabled?: boolean; className?: string }) {
  const { t } = useTranslation("settings");
  const { language } = useLocale();
  return <LocaleSelect label={t("language.label")} value={language} options={LANGUAGE_OPTIONS} onChoose={onChoose} disabled={disabled} className={className} />;
}

/** Western (0-9) or Arabic-Indic (٠-٩) digits, for every number the app shows. */
export function DigitsSelect({ onChoose, disabled = false, className = "" }: { onChoose: (digits: Digits) => void; disabled?: boolean; className?: string }) {
  const { t } = useTranslation("settings");
  const { digits } = useLocale();
  const options = DIGITS.map((d) => ({ value: d, text: t(`language.digitSystems.${d}`) }));
  return <LocaleSelect label={t("language.digits")} value={digits} options={options} onChoose={onChoose} disabled={disabled} className={className} />;
}
