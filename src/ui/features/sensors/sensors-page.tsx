import type { z } from "zod";
import type { Sensor } from "../../../contract/entities.ts";
import { SENSOR_TYPES, type SensorType } from "../../../contract/enums.ts";
import { sensorForm } from "../../../contract/forms.ts";
import type { DeviceKind } from "../../components/device-kind.ts";
import { DeviceListPage } from "../../components/device-list-page.tsx";
import { useCollection } from "../../data/hooks.ts";

/** SPEC §2 sensor modal: a disabled Type select; names are optional (SPEC §3); SPEC §4/§8 texts for sensors. */
const sensorKind: DeviceKind<Sensor, SensorType, z.output<typeof sensorForm>> = {
  types: SENSOR_TYPES,
  idOf: (s) => s.sensor_id,
  load: (core) => core.loadSensors(),
  scan: (core, mac) => core.scanSensor(mac),
  // The form leaves a blank name out; the API wants the field.
  save: (core, sensorId, values) => core.saveSensor(sensorId, { ...values, name: values.name ?? "" }),
  remove: (core, sensorId) => core.deleteSensor(sensorId),
  schema: sensorForm,
  lockedType: "disabled-select",
  badgeClass: "bg-sky-50 text-sky-800",
  unnamed: "Unnamed",
  texts: {
    heading: "Sensors",
    headingId: "sensors-heading",
    scan: "Scan Sensor",
    scanInstructions: "Point the rear camera at the QR code on the sensor's label.",
    searchLabel: "Search sensors",
    listLabel: "Sensors",
    count: (n) => `${n} sensor${n === 1 ? "" : "s"}`,
    loading: "Loading sensors…",
    loadFailed: "Failed to load sensors",
    loadFailedToastId: "sensors-load",
    emptyTitle: "No sensors yet",
    emptyHint: "Scan the QR code on a sensor to add it to one of your MCUs.",
    noMatchTitle: "No sensors found",
    addTitle: "Add Sensor",
    editTitle: "Edit Sensor",
    loaded: (mac) => `Loaded sensor ${mac}`,
    // SPEC §4: an empty sensor scan result reads "Sensor {mac} Not Found, Or Already Used"
    // (the MAC may be unknown or claimed by another client; the server does not say which).
    notFound: (mac) => `Sensor ${mac} Not Found, Or Already Used`,
    created: "Sensor created",
    updated: "Sensor updated",
    confirmDelete: "Delete this sensor?",
    deleted: "Sensor deleted",
  },
};

/** SPEC §2 Sensors: the controllers' layout for sensors. */
export default function SensorsPage() {
  return <DeviceListPage kind={sensorKind} devices={useCollection("sensors")} />;
}
