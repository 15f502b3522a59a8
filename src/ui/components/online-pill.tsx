import { useTranslation } from "react-i18next";

/**
 * Online or Offline as a pill with a dot: an MCU's live status wherever it is named (its card,
 * its history page). The word carries the meaning; the colour only repeats it.
 */
export function OnlinePill({ online, size = "sm" }: { online: boolean; size?: "sm" | "md" }) {
  const { t } = useTranslation("common");
  const box = size === "md" ? "px-3 py-1 text-sm 4xl:text-xl" : "px-2.5 py-0.5 text-xs 4xl:text-lg";
  return (
    <span className={`shrink-0 inline-flex items-center gap-1.5 rounded-full font-medium ${box} ${online ? "bg-brand-100 text-brand-800" : "bg-gray-200 text-gray-700"}`}>
      <span className={`w-2 h-2 4xl:w-3 4xl:h-3 rounded-full ${online ? "bg-brand-600" : "bg-gray-500"}`} aria-hidden="true" />
      {online ? t("status.online") : t("status.offline")}
    </span>
  );
}
