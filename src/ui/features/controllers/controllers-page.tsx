import type { z } from "zod";
import type { Controller } from "../../../contract/entities.ts";
import { CONTROLLER_TYPES, type ControllerType } from "../../../contract/enums.ts";
import { controllerForm } from "../../../contract/forms.ts";
import type { DeviceKind } from "../../components/device-kind.ts";
import { DeviceListPage } from "../../components/device-list-page.tsx";
import { useCollection } from "../../data/hooks.ts";
import { i18n } from "../../i18n/i18n.ts";

/** SPEC §2 controller modal: read-only Type; SPEC §4/§8 texts for controllers. */
const controllerKind: DeviceKind<Controller, ControllerType, z.output<typeof controllerForm>> = {
  types: CONTROLLER_TYPES,
  // English shows the type as the API names it (SPEC's filter options); other languages name it for people.
  typeLabel: (type) => i18n.t(`controllers:types.${type}`),
  idOf: (c) => c.unit_id,
  load: (core) => core.loadControllers(),
  scan: (core, mac) => core.scanController(mac),
  save: (core, unitId, values) => core.saveController(unitId, values),
  remove: (core, unitId) => core.deleteController(unitId),
  schema: controllerForm,
  lockedType: "read-only",
  badgeClass: "bg-brand-50 text-brand-800",
  // Read when the list shows them (getters), so they follow the language; the kind stays one constant.
  texts: {
    get heading() {
      return i18n.t("controllers:page.heading");
    },
    headingId: "controllers-heading",
    get scan() {
      return i18n.t("controllers:page.scan");
    },
    get scanInstructions() {
      return i18n.t("controllers:page.scanInstructions");
    },
    get searchLabel() {
      return i18n.t("controllers:page.searchLabel");
    },
    get listLabel() {
      return i18n.t("controllers:page.listLabel");
    },
    count: (n) => i18n.t("controllers:page.count", { count: n }),
    get loading() {
      return i18n.t("controllers:page.loading");
    },
    get loadFailed() {
      return i18n.t("controllers:page.loadFailed");
    },
    loadFailedToastId: "controllers-load",
    get emptyTitle() {
      return i18n.t("controllers:page.emptyTitle");
    },
    get emptyHint() {
      return i18n.t("controllers:page.emptyHint");
    },
    get noMatchTitle() {
      return i18n.t("controllers:page.noMatchTitle");
    },
    get addTitle() {
      return i18n.t("controllers:form.addTitle");
    },
    get editTitle() {
      return i18n.t("controllers:form.editTitle");
    },
    loaded: (mac) => i18n.t("controllers:scan.loaded", { mac }),
    notFound: (mac) => i18n.t("controllers:scan.notFound", { mac }),
    get created() {
      return i18n.t("controllers:form.created");
    },
    get updated() {
      return i18n.t("controllers:form.updated");
    },
    get confirmDelete() {
      return i18n.t("controllers:card.confirmDelete");
    },
    get deleted() {
      return i18n.t("controllers:card.deleted");
    },
  },
};

/** SPEC §2 System Controllers. */
export default function ControllersPage() {
  return <DeviceListPage kind={controllerKind} devices={useCollection("controllers")} />;
}
