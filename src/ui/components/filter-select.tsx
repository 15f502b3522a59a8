import { useId } from "react";

export interface FilterOption<T extends string> {
  value: T;
  label: string;
}

/**
 * A labelled select that narrows a list: "All …" (the empty value) and then each option. The
 * label sits above it and is tied to it, so a screen reader names the filter, not just its value.
 */
export function FilterSelect<T extends string>({
  label,
  allLabel,
  value,
  options,
  onChange,
}: {
  label: string;
  /** The empty choice, e.g. "All sources". */
  allLabel: string;
  value: T | "";
  options: readonly FilterOption<T>[];
  onChange: (value: T | "") => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm 4xl:text-xl font-medium text-gray-700 mb-1">
        {label}
      </label>
      <select
        id={id}
        className="block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 4xl:px-4 4xl:py-3 text-sm 4xl:text-xl text-gray-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
        value={value}
        onChange={(e) => onChange(e.target.value as T | "")}
      >
        <option value="">{allLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
