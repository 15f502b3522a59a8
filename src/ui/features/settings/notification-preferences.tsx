import { Description, Field, Label, Switch } from "@headlessui/react";

interface Preference {
  label: string;
  description?: string;
}

/** SPEC §2: display-only toggles, all shown on. */
const GROUPS: { title: string; items: Preference[] }[] = [
  {
    title: "Email",
    items: [
      { label: "System Alerts" },
      { label: "Device Status Changes", description: "MCUs going online or offline" },
      { label: "Environmental Alerts" },
      { label: "Maintenance Reminders" },
    ],
  },
  { title: "Push", items: [{ label: "Emergency Alerts" }, { label: "Daily Summary" }] },
];

/** SPEC §2 Settings, Notifications tab. The switches are disabled: nothing here can be changed. */
export function NotificationPreferences() {
  return (
    <div className="space-y-6">
      <p className="text-sm text-gray-600">These notifications are always on.</p>
      {GROUPS.map((group) => (
        <fieldset key={group.title}>
          <legend className="text-base font-semibold text-gray-900 mb-2">{group.title}</legend>
          <ul className="divide-y divide-gray-100 rounded-xl border border-gray-200">
            {group.items.map((item) => (
              <li key={item.label}>
                <Field disabled className="flex items-center justify-between gap-4 px-4 py-3">
                  <div className="min-w-0">
                    <Label className="block font-medium text-gray-900">{item.label}</Label>
                    {item.description && <Description className="text-sm text-gray-600">{item.description}</Description>}
                  </div>
                  <Switch
                    checked
                    disabled
                    className="group relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-brand-600 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-70"
                  >
                    <span aria-hidden="true" className="inline-block h-5 w-5 translate-x-5.5 rounded-full bg-white shadow transition" />
                  </Switch>
                </Field>
              </li>
            ))}
          </ul>
        </fieldset>
      ))}
    </div>
  );
}
