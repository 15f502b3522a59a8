import type { ProfileConfig } from "../../../contract/entities.ts";

/** The number fields' labels live with their ranges in src/contract/profile-settings.ts. */
export const AC_BASIS_LABELS: Record<ProfileConfig["ac"]["based_on"], string> = {
  soil_temp: "Soil temperature",
  room_temp: "Room temperature",
};
