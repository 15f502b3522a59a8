import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import type { Mcu } from "../../../contract/entities.ts";
import { can, ROLES } from "../../../contract/team-values.ts";
import type { FarmRole, Right, Role } from "../../../contract/team.ts";
import { roleRefusalText } from "../../data/farm-roles.ts";
import { useCollection } from "../../data/hooks.ts";

/**
 * Why the person may not do `right` to a batch, or null when they may (or their roles there are not
 * known yet). A batch's farms are its MCUs' farms, and the weakest role among them decides, as the
 * server checks it: a batch across two rooms is changed only by who may change both.
 */
export function useBatchRefusal(mcuIds: readonly number[], right: Right): string | null {
  const { t } = useTranslation("team");
  const mcuKey = mcuIds.join(",");
  const selectFarms = useCallback(
    (mcus: readonly Mcu[]) => {
      const ids = new Set(mcuKey.split(",").map(Number));
      const farms = new Set(mcus.filter((m) => ids.has(m.mcu_id)).map((m) => m.farm_id));
      return [...farms].sort((a, b) => a - b).join(",");
    },
    [mcuKey],
  );
  const farmKey = useCollection("mcus", selectFarms);
  const selectWeakest = useCallback(
    (list: readonly FarmRole[]) => {
      let weakest: Role | null = null;
      for (const farmId of farmKey === "" ? [] : farmKey.split(",").map(Number)) {
        const role = list.find((r) => r.farm_id === farmId)?.role;
        if (role && (weakest === null || ROLES.indexOf(role) > ROLES.indexOf(weakest))) weakest = role;
      }
      return weakest;
    },
    [farmKey],
  );
  const role = useCollection("farmRoles", selectWeakest);
  return role && !can(role, right) ? roleRefusalText(t, role, right) : null;
}
