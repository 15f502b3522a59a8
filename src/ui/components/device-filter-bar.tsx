import { useId } from "react";
import { useTranslation } from "react-i18next";
import { ALL_TYPES } from "./device-search.ts";

/**
 * The search box and type filter above the controller and sensor lists (SPEC §2). Both are
 * labelled for screen readers; the placeholder alone is not a label.
 */
export function DeviceFilterBar({
  query,
  onQuery,
  type,
  onType,
  types,
  typeLabel = (type) => type,
  searchLabel,
}: {
  query: string;
  onQuery: (query: string) => void;
  type: string;
  onType: (type: string) => void;
  types: readonly string[];
  /** A type as the person reads it; the filter's value stays the type itself. */
  typeLabel?: (type: string) => string;
  /** e.g. "Search controllers" */
  searchLabel: string;
}) {
  const { t } = useTranslation("common");
  const id = useId();
  return (
    <div role="search" className="flex flex-col sm:flex-row gap-3">
      <div className="flex-1 min-w-0">
        <label htmlFor={`${id}-q`} className="sr-only">
          {searchLabel}
        </label>
        <input
          id={`${id}-q`}
          type="search"
          value={query}
          onChange={(e) => onQuery(e.target.value)}
          placeholder={t("device.searchPlaceholder")}
          autoComplete="off"
          spellCheck={false}
          className="block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 4xl:py-3 4xl:text-xl text-gray-900 placeholder-gray-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
        />
      </div>
      <div className="flex items-center gap-2 sm:w-56 4xl:w-80">
        <label htmlFor={`${id}-t`} className="text-sm 4xl:text-xl font-medium text-gray-700 whitespace-nowrap">
          {t("device.type")}
        </label>
        <select
          id={`${id}-t`}
          value={type}
          onChange={(e) => onType(e.target.value)}
          className="block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 4xl:py-3 4xl:text-xl text-gray-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
        >
          <option value={ALL_TYPES}>{t("device.allTypes")}</option>
          {types.map((type) => (
            <option key={type} value={type}>
              {typeLabel(type)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
