import { useEffect, useId, useRef, useState, type SelectHTMLAttributes } from "react";
import { COUNTRIES, DEFAULT_COUNTRY_CODE, findCountry, flagUrl } from "./countries.ts";

export interface CountrySelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, "children" | "multiple"> {
  /** Visible label; SPEC §2 calls it Country. */
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
  label = "Country",
  error,
  id,
  name = "country",
  value,
  defaultValue = DEFAULT_COUNTRY_CODE,
  onChange,
  className,
  ...select
}: CountrySelectProps) {
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
  const flag = flagUrl(country?.countryCode);
  const errorText = Array.isArray(error) ? error[0] : error;

  return (
    <div className={`mb-4 ${className ?? ""}`}>
      <label htmlFor={controlId} className="block text-sm font-medium text-gray-700 mb-1">
        {label}
      </label>
      <div className="flex items-center gap-3">
        <span className="shrink-0 flex items-center justify-center w-10 h-7.5 rounded overflow-hidden border border-gray-200 bg-gray-100">
          {flag && country ? (
            <img src={flag} alt={`Flag of ${country.countryName}`} width={40} height={30} className="w-full h-full object-cover" data-testid="country-flag" />
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
          <option value="">Select your country</option>
          {COUNTRIES.map((c) => (
            <option key={c.countryCode} value={c.countryCode}>
              {c.countryName}
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
