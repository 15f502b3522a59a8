import type { z } from "zod";
import type { Sensor } from "../../../contract/entities.ts";
import { SENSOR_TYPES, type SensorType } from "../../../contract/enums.ts";
import { sensorForm } from "../../../contract/forms.ts";
import type { DeviceKind } from "../../components/device-kind.ts";
import { DeviceListPage } from "../../components/device-list-page.tsx";
import { useCollection } from "../../data/hooks.ts";
import { i18n } from "../../i18n/i18n.ts";

/** SPEC §2 sensor modal: a disabled Type select; names are optional (SPEC §3); SPEC §4/§8 texts for sensors. */
const sensorKind: DeviceKind<Sensor, SensorType, z.output<typeof sensorForm>> = {
  types: SENSOR_TYPES,
  // English shows the type as the API names it (SPEC's filter options); other languages name it for people.
  typeLabel: (type) => i18n.t(`sensors:types.${type}`),
  idOf: (s) => s.sensor_id,
  load: (core) => core.loadSensors(),
  scan: (core, mac) => core.scanSensor(mac),
  // The form leaves a blank name out; the API wants the field.
  save: (core, sensorId, values) => core.saveSensor(sensorId, { ...values, name: values.name ?? "" }),
  remove: (core, sensorId) => core.deleteSensor(sensorId),
  schema: sensorForm,
  lockedType: "disabled-select",
  badgeClass: "bg-sky-50 text-sky-800",
  get unnamed() {
    return i18n.t("sensors:card.unnamed");
  },
  // Read when the list shows them (getters), so they follow the language; the kind stays one constant.
  texts: {
    get heading() {
      return i18n.t("sensors:page.heading");
    },
    headingId: "sensors-heading",
    get scan() {
      return i18n.t("sensors:page.scan");
    },
    get scanInstructions() {
      return i18n.t("sensors:page.scanInstructions");
    },
    get searchLabel() {
      return i18n.t("sensors:page.searchLabel");
    },
    get listLabel() {
      return i18n.t("sensors:page.listLabel");
    },
    count: (n) => i18n.t("sensors:page.count", { count: n }),
    get loading() {
      return i18n.t("sensors:page.loading");
    },
    get loadFailed() {
      return i18n.t("sensors:page.loadFailed");
    },
    loadFailedToastId: "sensors-load",
    get emptyTitle() {
      return i18n.t("sensors:page.emptyTitle");
    },
    get emptyHint() {
      return i18n.t("sensors:page.emptyHint");
    },
    get noMatchTitle() {
      return i18n.t("sensors:page.noMatchTitle");
    },
    get addTitle() {
      return i18n.t("sensors:form.addTitle");
    },
    get editTitle() {
      return i18n.t("sensors:form.editTitle");
    },
    loaded: (mac) => i18n.t("sensors:scan.loaded", { mac }),
    // SPEC §4: an empty sensor scan result reads "Sensor {mac} Not Found, Or Already Used"
    // (the MAC may be unknown or claimed by another client; the server does not say which).
    notFound: (mac) => i18n.t("sensors:scan.notFound", { mac }),
    get created() {
      return i18n.t("sensors:form.created");
    },
    get updated() {
      return i18n.t("sensors:form.updated");
    },
    get confirmDelete() {
      return i18n.t("sensors:card.confirmDelete");
    },
    get deleted() {
      return i18n.t("sensors:card.deleted");
    },
  },
};

/** SPEC §2 Sensors: the controllers' layout for sensors. */
export default function SensorsPage() {
  return <DeviceListPage kind={sensorKind} devices={useCollection("sensors")} />;
}
