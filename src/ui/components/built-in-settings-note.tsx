import { useTranslation } from "react-i18next";

/**
 * What an MCU's automation follows while no profile is linked: the settings built into the
 * device (the simulator's DEFAULT_CONFIG stands for them), until a linked profile's config reaches
 * it. Said under "No profile linked" on the Dashboard's and the MCU Manager's cards, so an
 * Automation switch that is on does not leave the grower guessing what it acts on.
 */
export function BuiltInSettingsNote({ className }: { className: string }) {
  return <p className={className}>{BUILT_IN_SETTINGS_TEXT}</p>;
}

/** The note's words alone, in the person's language. */
function BuiltInSettingsText() {
  const { t } = useTranslation("common");
  return t("builtInSettings");
}

/** The note's words as an element, for a card that places them in an element of its own (a `<dd>`). */
export const BUILT_IN_SETTINGS_TEXT = <BuiltInSettingsText />;
