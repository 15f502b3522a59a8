import { PROFILE_SETTINGS, type ProfileSetting } from "../../../contract/profile-settings.ts";
import { i18n } from "../../i18n/i18n.ts";

/**
 * A setting of a phase by its path in the config ("ac.target_temp"): its range from the contract,
 * its words (label, name, unit) from the catalogue, written when called in the reader's language.
 */
export type SettingPath = {
  [G in keyof typeof PROFILE_SETTINGS]: `${G}.${keyof (typeof PROFILE_SETTINGS)[G] & string}`;
}[keyof typeof PROFILE_SETTINGS];

export function settingOf(path: SettingPath): ProfileSetting {
  const [group, key] = path.split(".") as [keyof typeof PROFILE_SETTINGS, string];
  return (PROFILE_SETTINGS[group] as Record<string, ProfileSetting>)[key]!;
}

/** The field's label under its device's heading: "On below (%)". */
export const settingLabel = (path: SettingPath) => i18n.t(`recipes:settings.${path}.label`);
/** The value's name on its own: "Humidifier on below". */
export const settingName = (path: SettingPath) => i18n.t(`recipes:settings.${path}.name`);
/** Its unit: "%", "hours". */
export const settingUnit = (path: SettingPath) => i18n.t(`recipes:settings.${path}.unit`);
/** "Humidifier off above (%)": a value named on its own, with its unit. */
export const standaloneText = (path: SettingPath) => i18n.t("recipes:settingWithUnit", { name: settingName(path), unit: settingUnit(path) });
