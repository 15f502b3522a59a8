import type { ZodType } from "zod";
import type { ScanResult } from "../../worker/core.ts";
import type { CoreHandle } from "../data/core-client.ts";
import type { LockedTypeStyle } from "./device-form-dialog.tsx";

/** What the controller and sensor lists show of a device. */
export interface ListedDevice<Type extends string> {
  name: string;
  mac: string;
  type: Type;
  mcu_id: number | null;
  mcu_name: string | null;
}

/**
 * Everything that differs between the System Controllers and Sensors screens. The texts are
 * the kind's own SPEC §2/§4/§8 wording (the two screens do not say things the same way), so
 * each feature folder keeps them as configuration and DeviceListPage never invents one.
 * Core calls take the core as an argument so a kind can be a module constant: the page's
 * effects then depend on nothing that changes from render to render. The texts are read each
 * time the page renders (getters that ask the catalogue), so they follow the person's language.
 */
export interface DeviceKind<Device extends ListedDevice<Type>, Type extends string, Values> {
  types: readonly Type[];
  /**
   * A type as the person reads it, in their language (the filter, the card's badge, the form);
   * without it the type's own value is shown. The lists filter and the forms send the value.
   */
  typeLabel?: (type: Type) => string;
  idOf: (device: Device) => number;
  load: (core: CoreHandle) => Promise<void>;
  scan: (core: CoreHandle, mac: string) => Promise<ScanResult<Device>>;
  /** Creates (id null) or updates. */
  save: (core: CoreHandle, id: number | null, values: Values) => Promise<unknown>;
  remove: (core: CoreHandle, id: number) => Promise<void>;
  /** The form's SPEC §5 schema. */
  schema: ZodType<Values>;
  lockedType: LockedTypeStyle;
  /** Colours of the card's type badge. */
  badgeClass: string;
  /** Shown on a card instead of a blank name, for kinds whose name is optional. */
  unnamed?: string;
  texts: {
    /** The h2 (the top bar holds the only h1) and its id, which names the section. */
    heading: string;
    headingId: string;
    /** The scan button and the MAC entry dialog's title. */
    scan: string;
    scanInstructions: string;
    searchLabel: string;
    listLabel: string;
    count: (n: number) => string;
    loading: string;
    /** Toast and LoadError text; the toast id keeps StrictMode's double mount from showing it twice. */
    loadFailed: string;
    loadFailedToastId: string;
    emptyTitle: string;
    emptyHint: string;
    noMatchTitle: string;
    addTitle: string;
    editTitle: string;
    loaded: (mac: string) => string;
    notFound: (mac: string) => string;
    created: string;
    updated: string;
    confirmDelete: string;
    deleted: string;
  };
}
