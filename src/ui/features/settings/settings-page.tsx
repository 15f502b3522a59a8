import { Tab, TabGroup, TabList, TabPanel, TabPanels } from "@headlessui/react";
import { useTranslation } from "react-i18next";
import { useClient } from "../../data/provider.tsx";
import { NotificationPreferences } from "./notification-preferences.tsx";
import { PasswordSettingsForm } from "./password-settings-form.tsx";
import { ProfileSettingsForm } from "./profile-settings-form.tsx";
import { LanguageSettings } from "./language-settings.tsx";

const TABS = ["profile", "notifications", "security"] as const;

/** SPEC §2 Settings: three tabs (Profile, Notifications, Security). */
export default function SettingsPage() {
  const client = useClient();
  const { t } = useTranslation("settings");
  // The route guard renders this page only with a client; a sign-out elsewhere can still race it.
  if (!client) return null;
  // A wall screen is read from across the room: the whole card scales up rather than spreading out.
  return (
    <div className="mx-auto max-w-3xl 4xl:[zoom:1.6]">
      <TabGroup className="card">
        <TabList className="flex border-b border-gray-200 px-2 sm:px-4 overflow-x-auto">
          {TABS.map((tab) => (
            <Tab
              key={tab}
              className="-mb-px whitespace-nowrap border-b-2 border-transparent px-3 sm:px-4 py-3 text-sm font-medium text-gray-600 hover:text-gray-900 focus:outline-none data-[focus]:ring-2 data-[focus]:ring-brand-600/40 data-[selected]:border-brand-700 data-[selected]:text-brand-800"
            >
              {t(`tabs.${tab}`)}
            </Tab>
          ))}
        </TabList>
        <TabPanels className="p-4 sm:p-6">
          <TabPanel className="focus:outline-none data-[focus]:ring-2 data-[focus]:ring-brand-600/30 rounded-lg">
            <ProfileSettingsForm client={client} />
            <LanguageSettings client={client} />
          </TabPanel>
          <TabPanel className="focus:outline-none data-[focus]:ring-2 data-[focus]:ring-brand-600/30 rounded-lg">
            <NotificationPreferences />
          </TabPanel>
          <TabPanel className="focus:outline-none data-[focus]:ring-2 data-[focus]:ring-brand-600/30 rounded-lg">
            <PasswordSettingsForm client={client} />
          </TabPanel>
        </TabPanels>
      </TabGroup>
    </div>
  );
}
