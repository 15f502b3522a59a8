import type { z } from "zod";
import type { Controller } from "../../../contract/entities.ts";
import { CONTROLLER_TYPES, type ControllerType } from "../../../contract/enums.ts";
import { controllerForm } from "../../../contract/forms.ts";
import type { DeviceKind } from "../../components/device-kind.ts";
import { DeviceListPage } from "../../components/device-list-page.tsx";
import { useCollection } from "../../data/hooks.ts";

/** SPEC §2 controller modal: read-only Type; SPEC §4/§8 texts for controllers. */
const controllerKind: DeviceKind<Controller, ControllerType, z.output<typeof controllerForm>> = {
  types: CONTROLLER_TYPES,
  idOf: (c) => c.unit_id,
  load: (core) => core.loadControllers(),
  scan: (core, mac) => core.scanController(mac),
  save: (core, unitId, values) => core.saveController(unitId, values),
  remove: (core, unitId) => core.deleteController(unitId),
  schema: controllerForm,
  lockedType: "read-only",
  badgeClass: "bg-brand-50 text-brand-800",
  texts: {
    heading: "System Controllers",
    headingId: "controllers-heading",
    scan: "Scan Controller",
    scanInstructions: "Point the rear camera at the QR code on the controller's label.",
    searchLabel: "Search controllers",
    listLabel: "Controllers",
    count: (n) => `${n} controller${n === 1 ? "" : "s"}`,
    loading: "Loading controllers…",
    loadFailed: "Failed to load controllers",
    loadFailedToastId: "controllers-load",
    emptyTitle: "No controllers yet",
    emptyHint: "Scan the QR code on a controller to add it to one of your MCUs.",
    noMatchTitle: "No controllers found",
    addTitle: "Add Controller",
    editTitle: "Edit Controller",
    loaded: (mac) => `Controller ${mac} loaded`,
    notFound: (mac) => `No controller found for MAC: ${mac}`,
    created: "Created successfully",
    updated: "Updated successfully",
    confirmDelete: "Confirm delete?",
    deleted: "Deleted successfully",
  },
};

/** SPEC §2 System Controllers. */
export default function ControllersPage() {
  return <DeviceListPage kind={controllerKind} devices={useCollection("controllers")} />;
}
