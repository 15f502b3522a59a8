import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { SettingProfile } from "../../../contract/entities.ts";
import { EditableCardHeader } from "../../components/editable-card-header.tsx";
import { CloudIcon, DropletIcon, FanIcon, ThermometerIcon } from "../../components/icons.tsx";
import { useAccountRefusal } from "../../data/farm-roles.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { settingValue } from "./setting-value.ts";

function Setting({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="rounded-lg bg-gray-50 px-3 py-2">
      <dt className="flex items-center gap-1.5 font-medium text-gray-600">
        {icon}
        {title}
      </dt>
      {children}
    </div>
  );
}

/**
 * One profile's summary (SPEC §2): each device's settings with the units of SPEC §9. A profile of
 * another account is changed only by a role there that may change profiles.
 */
export function ProfileCard({ profile, onEdit, onDelete, deleting }: { profile: SettingProfile; onEdit: () => void; onDelete: () => void; deleting: boolean }) {
  const { t } = useTranslation("profiles");
  // The values follow a change of digits, which changes no text.
  useLocale();
  const { irrigation, ventilation, ac, humidifier } = profile.config;
  const links = profile.mcu_links.length;
  const headingId = `profile-${profile.profile_id}-name`;
  const refusal = useAccountRefusal(profile.client_id, "manageProfiles");
  return (
    <article aria-labelledby={headingId} className="card w-full p-5 4xl:p-7 flex flex-col">
      <EditableCardHeader headingId={headingId} name={profile.name} noun={t("card.noun")} onEdit={onEdit} onDelete={onDelete} deleting={deleting} refusal={refusal}>
        <p className={`mt-1 inline-block rounded-full px-2.5 py-0.5 text-xs 4xl:text-lg font-medium ${links ? "bg-brand-50 text-brand-800" : "bg-gray-100 text-gray-600"}`}>
          {links ? t("card.mcusLinked", { count: links }) : t("card.noMcusLinked")}
        </p>
      </EditableCardHeader>

      <dl className="mt-4 grid gap-2 sm:grid-cols-2 text-sm 4xl:text-xl">
        <Setting icon={<DropletIcon className="text-sky-600" />} title={t("groups.irrigation")}>
          <dd className="text-gray-900">
            {t("card.cycle", { hours: t("card.hours", { count: irrigation.on_cycle_hours }), liters: t("card.liters", { count: irrigation.off_cycle_liters }) })}
          </dd>
          <dd className="text-gray-700">{t("card.soilMoisture", { on: settingValue(irrigation.soil_moisture_on), off: settingValue(irrigation.soil_moisture_off) })}</dd>
        </Setting>
        <Setting icon={<FanIcon className="text-teal-600" />} title={t("groups.ventilation")}>
          <dd className="text-gray-900">{t("card.co2Threshold", { value: settingValue(ventilation.co2_threshold) })}</dd>
        </Setting>
        <Setting icon={<ThermometerIcon className="text-orange-600" />} title={t("groups.ac")}>
          <dd className="text-gray-900">{t("card.target", { value: settingValue(ac.target_temp) })}</dd>
          <dd className="text-gray-700">{t(`card.basedOn.${ac.based_on}`)}</dd>
        </Setting>
        <Setting icon={<CloudIcon className="text-indigo-600" />} title={t("groups.humidifier")}>
          <dd className="text-gray-900">{t("card.onBelow", { value: settingValue(humidifier.humidity_on_below) })}</dd>
          <dd className="text-gray-700">{t("card.offAbove", { value: settingValue(humidifier.humidity_off_above) })}</dd>
        </Setting>
      </dl>
    </article>
  );
}
