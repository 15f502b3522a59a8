import { useCallback, useDeferredValue, useEffect, useMemo, useState } from "react";
import { CoreError } from "../../../contract/core-error.ts";
import { CONTROLLER_TYPES, type Controller, type ControllerType } from "../../../contract/entities.ts";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { DeviceFilterBar } from "../../components/device-filter-bar.tsx";
import { ALL_TYPES, matchesDevice } from "../../components/device-search.ts";
import { ScanIcon } from "../../components/icons.tsx";
import { MacEntryDialog } from "../../components/mac-entry-dialog.tsx";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useControllers, useMcus } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { ControllerCard } from "./controller-card.tsx";
import { ControllerFormDialog, type ControllerDraft, type ControllerValues } from "./controller-form-dialog.tsx";

const isControllerType = (t: string): t is ControllerType => (CONTROLLER_TYPES as readonly string[]).includes(t);

const countOf = (n: number) => `${n} controller${n === 1 ? "" : "s"}`;

const draftOf = (c: Controller): ControllerDraft => ({ unitId: c.unit_id, name: c.name, mac: c.mac, type: c.type, mcuId: c.mcu_id });

/** SPEC §2 System Controllers: scan to add or edit, search and filter, edit and delete cards. */
export default function ControllersPage() {
  const { core } = useAppData();
  const confirm = useConfirm();
  const controllers = useControllers();
  const mcus = useMcus();
  // A list kept in the store from an earlier visit stays on screen while it reloads.
  const [load, setLoad] = useState<"loading" | "ready" | "error">(controllers.length > 0 ? "ready" : "loading");
  const [query, setQuery] = useState("");
  const [type, setType] = useState(ALL_TYPES);
  const [scanning, setScanning] = useState(false);
  const [draft, setDraft] = useState<ControllerDraft | null>(null);

  const loadControllers = useCallback(async () => {
    setLoad((s) => (s === "ready" ? s : "loading"));
    try {
      await core.loadControllers();
      setLoad("ready");
    } catch {
      // The toast id keeps StrictMode's double mount from showing it twice.
      notify.error("Failed to load controllers", { toastId: "controllers-load" });
      setLoad("error");
    }
  }, [core]);

  useEffect(() => {
    void loadControllers();
    // The MCU list names each card's MCU and fills the form's select.
    core.loadMcus().catch((err: unknown) => notify.info(messageOf(err, "Failed to fetch MCU by client"), { toastId: "mcus-load" }));
  }, [core, loadControllers]);

  const mcuNames = useMemo(() => new Map(mcus.map((m) => [m.mcu_id, m.name])), [mcus]);
  const deferredQuery = useDeferredValue(query);
  const shown = useMemo(() => controllers.filter((c) => matchesDevice(c, deferredQuery, type)), [controllers, deferredQuery, type]);

  async function lookUp(mac: string) {
    setScanning(false);
    try {
      const result = await core.scanController(mac);
      if (result.found) {
        setDraft(draftOf(result.device));
        notify.success(`Controller ${result.device.mac} loaded`);
      } else {
        // Unclaimed stock: the inventory knows its type, the client chooses name and MCU.
        const { device } = result;
        setDraft({ unitId: null, name: device.name, mac: device.mac, type: isControllerType(device.type) ? device.type : null, mcuId: null });
      }
    } catch (err) {
      if (err instanceof CoreError && err.status === 404) {
        const notice = `No controller found for MAC: ${mac}`;
        setDraft({ unitId: null, name: "", mac, type: null, mcuId: null, notice });
        notify.info(notice);
      } else {
        notify.error(err instanceof CoreError ? (err.serverMessage ?? err.message) : String(err));
      }
    }
  }

  async function save(values: ControllerValues) {
    if (!draft) return;
    try {
      await core.saveController(draft.unitId, values);
      notify.success(draft.unitId === null ? "Created successfully" : "Updated successfully");
      setDraft(null);
    } catch (err) {
      notify.error(messageOf(err, "Save failed"));
    }
  }

  async function remove(c: Controller) {
    if (!(await confirm("Confirm delete?"))) return;
    try {
      await core.deleteController(c.unit_id);
      notify.success("Deleted successfully");
    } catch {
      notify.error("Delete failed");
    }
  }

  let content;
  if (load === "loading" && controllers.length === 0) {
    content = <Loading text="Loading controllers…" />;
  } else if (load === "error" && controllers.length === 0) {
    content = <LoadError text="Failed to load controllers" onRetry={() => void loadControllers()} />;
  } else if (controllers.length === 0) {
    content = (
      <EmptyState title="No controllers yet">
        <p>Scan the QR code on a controller to add it to one of your MCUs.</p>
      </EmptyState>
    );
  } else if (shown.length === 0) {
    content = (
      <EmptyState title="No controllers found">
        <p>Try another name, MAC or type.</p>
      </EmptyState>
    );
  } else {
    content = (
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4 3xl:grid-cols-5 4xl:grid-cols-6" aria-label="Controllers">
        {shown.map((c) => (
          <ControllerCard
            key={c.unit_id}
            controller={c}
            mcuName={(c.mcu_id !== null ? mcuNames.get(c.mcu_id) : undefined) ?? c.mcu_name}
            onEdit={() => setDraft(draftOf(c))}
            onDelete={() => void remove(c)}
          />
        ))}
      </ul>
    );
  }

  return (
    <section aria-labelledby="controllers-heading" className="space-y-4 4xl:space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="controllers-heading" className="text-2xl 4xl:text-4xl font-semibold text-gray-900">
          System Controllers
        </h2>
        <button type="button" className="btn-primary 4xl:text-xl 4xl:px-6 4xl:py-3" onClick={() => setScanning(true)}>
          <ScanIcon /> Scan Controller
        </button>
      </div>
      <DeviceFilterBar query={query} onQuery={setQuery} type={type} onType={setType} types={CONTROLLER_TYPES} searchLabel="Search controllers" />
      {controllers.length > 0 && (
        <p role="status" className="text-sm 4xl:text-lg text-gray-600">
          {shown.length === controllers.length ? countOf(controllers.length) : `${shown.length} of ${countOf(controllers.length)}`}
        </p>
      )}
      {content}
      <MacEntryDialog
        open={scanning}
        onClose={() => setScanning(false)}
        onResult={(mac) => void lookUp(mac)}
        title="Scan Controller"
        instructions="Enter the MAC address printed under the controller's QR code."
      />
      <ControllerFormDialog draft={draft} mcus={mcus} onClose={() => setDraft(null)} onSave={save} />
    </section>
  );
}
