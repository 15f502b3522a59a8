import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "../../i18n/i18n.ts";
import { checkCustomRange, presetWords, RANGE_PRESETS, rangeErrorText, resolveRange, toLocalInput, type CustomRangeErrors, type RangeChoice } from "./time-range.ts";

const toggleClass = (pressed: boolean) =>
  `min-h-11 min-w-12 4xl:min-h-16 4xl:min-w-20 px-3 4xl:px-5 text-sm 4xl:text-xl font-medium first:rounded-s-lg last:rounded-e-lg border border-gray-300 -ms-px first:ms-0 focus-visible:relative focus-visible:z-10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${pressed ? "bg-brand-700 text-white border-brand-700 relative" : "bg-white text-gray-800 hover:bg-gray-50"}`;

const inputClass =
  "block w-full rounded-lg border bg-white px-3 py-2 4xl:px-4 4xl:py-3 text-sm 4xl:text-xl text-gray-900 focus:outline-none focus:ring-2";

/**
 * The range of the charts: 1 h / 24 h / 7 d / 30 d as toggle buttons (aria-pressed), and Custom,
 * which opens two date-time fields checked together on Apply.
 */
export function RangePicker({ choice, onChange }: { choice: RangeChoice; onChange: (choice: RangeChoice) => void }) {
  const { t } = useTranslation("history");
  useLocale();
  const [customOpen, setCustomOpen] = useState(choice.kind === "custom");
  const formId = useId();
  return (
    <div className="flex flex-col gap-3">
      <div role="group" aria-label={t("range.picker")} className="inline-flex flex-wrap">
        {RANGE_PRESETS.map((p) => {
          const pressed = choice.kind === "preset" && choice.preset === p.key && !customOpen;
          return (
            <button
              key={p.key}
              type="button"
              title={presetWords(t, p.key, "name")}
              aria-pressed={pressed}
              className={toggleClass(pressed)}
              onClick={() => {
                setCustomOpen(false);
                onChange({ kind: "preset", preset: p.key });
              }}
            >
              {presetWords(t, p.key, "label")}
            </button>
          );
        })}
        <button type="button" aria-pressed={customOpen} aria-expanded={customOpen} aria-controls={formId} className={toggleClass(customOpen)} onClick={() => setCustomOpen(true)}>
          {t("range.custom")}
        </button>
      </div>
      {customOpen && <CustomRangeForm id={formId} choice={choice} onApply={onChange} />}
    </div>
  );
}

function CustomRangeForm({ id, choice, onApply }: { id: string; choice: RangeChoice; onApply: (choice: RangeChoice) => void }) {
  const { t } = useTranslation("history");
  // The fields start from the range shown, so Custom refines it rather than starting blank.
  const [initial] = useState(() => resolveRange(choice, Date.now()));
  const [fromText, setFromText] = useState(() => toLocalInput(initial.from));
  const [toText, setToText] = useState(() => toLocalInput(initial.to));
  const [errors, setErrors] = useState<CustomRangeErrors>({});
  const fromId = useId();
  const toId = useId();

  function apply(e: FormEvent) {
    e.preventDefault();
    const check = checkCustomRange(fromText, toText, Date.now());
    if (!check.ok) {
      setErrors(check.errors);
      return;
    }
    setErrors({});
    onApply({ kind: "custom", from: check.from, to: check.to });
  }

  const field = (name: "from" | "to", label: string, inputId: string, value: string, set: (v: string) => void) => {
    const error = errors[name];
    return (
      <div className="min-w-0 flex-1 sm:flex-none">
        <label htmlFor={inputId} className="block text-sm 4xl:text-xl font-medium text-gray-700 mb-1">
          {label}
        </label>
        <input
          id={inputId}
          type="datetime-local"
          value={value}
          onChange={(e) => set(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          className={`${inputClass} ${error ? "border-red-600 focus:ring-red-600/30" : "border-gray-300 focus:border-brand-600 focus:ring-brand-600/30"}`}
        />
        {error && (
          <p id={`${inputId}-error`} className="mt-1 text-sm 4xl:text-lg text-red-700">
            {rangeErrorText(t, error)}
          </p>
        )}
      </div>
    );
  };

  return (
    <form id={id} noValidate onSubmit={apply} aria-label={t("range.customForm")} className="flex flex-wrap items-start gap-3">
      {field("from", t("range.from"), fromId, fromText, setFromText)}
      {field("to", t("range.to"), toId, toText, setToText)}
      <button type="submit" className="btn-primary mt-6 4xl:mt-9 4xl:text-xl 4xl:px-6 4xl:py-3">
        {t("range.apply")}
      </button>
    </form>
  );
}
