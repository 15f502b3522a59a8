import "i18next";
import type common from "../../locales/en/common.json";
import type auth from "../../locales/en/auth.json";
import type dashboard from "../../locales/en/dashboard.json";
import type farms from "../../locales/en/farms.json";
import type mcu from "../../locales/en/mcu.json";
import type controllers from "../../locales/en/controllers.json";
import type sensors from "../../locales/en/sensors.json";
import type profiles from "../../locales/en/profiles.json";
import type settings from "../../locales/en/settings.json";
import type alarms from "../../locales/en/alarms.json";
import type history from "../../locales/en/history.json";
import type recipes from "../../locales/en/recipes.json";
import type batches from "../../locales/en/batches.json";
import type team from "../../locales/en/team.json";
import type wall from "../../locales/en/wall.json";
import type pwa from "../../locales/en/pwa.json";
import type forms from "../../locales/en/forms.json";
import type errors from "../../locales/en/errors.json";

// English is the catalogue's reference: a key used in the code that English lacks fails the type check.
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: {
      common: typeof common;
      auth: typeof auth;
      dashboard: typeof dashboard;
      farms: typeof farms;
      mcu: typeof mcu;
      controllers: typeof controllers;
      sensors: typeof sensors;
      profiles: typeof profiles;
      settings: typeof settings;
      alarms: typeof alarms;
      history: typeof history;
      recipes: typeof recipes;
      batches: typeof batches;
      team: typeof team;
      wall: typeof wall;
      pwa: typeof pwa;
      forms: typeof forms;
      errors: typeof errors;
    };
  }
}
