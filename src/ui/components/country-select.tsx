import { useEffect, useId, useRef, useState, type SelectHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import type { Language } from "../../contract/language-values.ts";
import { useLocale } from "../i18n/i18n.ts";
import { COUNTRIES, DEFAULT_COUNTRY_CODE, findCountry, flagUrl } from "./countries.ts";

interface CountryOption {
  code: string;
  name: string;
}

const optionsByLanguage = new Map<Language, readonly CountryOption[]>();

/**
 * The countries named in the person's language and sorted as that language sorts. English keeps
 * SPEC's list as it is (countries.ts); another language takes the browser's own names (Intl's),
 * and SPEC's English name where the browser has none. The value chosen is the ISO code either way.
 */
function countryOptions(language: Language): readonly CountryOption[] {
  let options = optionsByLanguage.get(language);
  if (!options) {
    const english = COUNTRIES.map((c) => ({ code: c.countryCode, name: c.countryName }));
    if (language === "en") options = english;
    else {
      let names: Intl.DisplayNames | null = null;
      try {
        names = new Intl.DisplayNames([language], { type: "region", fallback: "none" });
      } catch {
        // An engine without region names keeps SPEC's English names.
      }
      const collator = new Intl.Collator(language);
      options = english.map((c) => ({ code: c.code, name: names?.of(c.code) ?? c.name })).sort((a, b) => collator.compare(a.name, b.name));
    }
    optionsByLanguage.set(language, options);
  }
  return options;
}

export interface CountrySelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, "children" | "multiple"> {
  /** Visible label; SPEC §2 calls it Country (the default, in the person's language). */
  label?: string;
  error?: string | string[];
}

/**
 * The reusable country field of SPEC §2: a native select named `country` (a phone shows its own
 * picker, and the keyboard can jump by typing a name), with the flag of the chosen country
 * beside it. Works uncontrolled (`defaultValue`, Lebanon unless told otherwise; Conform's
 * `getSelectProps` fits) or controlled (`value` + `onChange`).
 */
export function CountrySelect({
  label,
  error,
  id,
  name = "country",
  value,
  defaultValue = DEFAULT_COUNTRY_CODE,
  onChange,
  className,
  ...select
}: CountrySelectProps) {
  const { t } = useTranslation("common");
  const { language } = useLocale();
  const options = countryOptions(language);
  const auto = useId();
  const controlId = id ?? auto;
  const errorId = `${controlId}-error`;
  const ref = useRef<HTMLSelectElement>(null);
  const [chosen, setChosen] = useState(() => String(defaultValue ?? ""));
  const shown = value !== undefined ? String(value ?? "") : chosen;

  // A form reset puts the select back to its default without a change event: follow it.
  useEffect(() => {
    const form = ref.current?.form;
    if (!form) return;
    const onReset = () => setTimeout(() => ref.current && setChosen(ref.current.value));
    form.addEventListener("reset", onReset);
    return () => form.removeEventListener("reset", onReset);
  }, []);

  const country = findCountry(shown);
  const countryName = country && options.find((o) => o.code === country.countryCode)?.name;
  const flag = flagUrl(country?.countryCode);
  const errorText = Array.isArray(error) ? error[0] : error;

  return (
    <div className={`mb-4 ${className ?? ""}`}>
      <label htmlFor={controlId} className="block text-sm font-medium text-gray-700 mb-1">
        {label ?? t("country.label")}
      </label>
      <div className="flex items-center gap-3">
        <span className="shrink-0 flex items-center justify-center w-10 h-7.5 rounded overflow-hidden border border-gray-200 bg-gray-100">
          {flag && countryName ? (
            <img src={flag} alt={t("country.flagOf", { country: countryName })} width={40} height={30} className="w-full h-full object-cover" data-testid="country-flag" />
          ) : null}
        </span>
        <select
          ref={ref}
          id={controlId}
          name={name}
          aria-invalid={errorText ? true : undefined}
          aria-describedby={errorText ? errorId : undefined}
          className={`block w-full min-w-0 h-10.5 rounded-lg border ${errorText ? "border-red-500" : "border-gray-300"} bg-white px-3 py-2 text-gray-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 disabled:bg-gray-100 disabled:text-gray-500`}
          {...(value !== undefined ? { value: value ?? "" } : { defaultValue: defaultValue ?? "" })}
          onChange={(event) => {
            setChosen(event.target.value);
            onChange?.(event);
          }}
          {...select}
        >
          <option value="">{t("country.choose")}</option>
          {options.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      {errorText ? (
        <p id={errorId} role="alert" className="mt-1 text-sm text-red-600">
          {errorText}
        </p>
      ) : null}
    </div>
  );
}
