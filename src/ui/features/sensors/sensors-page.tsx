import { useCallback, useDeferredValue, useEffect, useMemo, useState } from "react";
import { CoreError } from "../../../contract/core-error.ts";
import { SENSOR_TYPES, type Sensor, type SensorType } from "../../../contract/entities.ts";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { DeviceFilterBar } from "../../components/device-filter-bar.tsx";
import { ALL_TYPES, matchesDevice } from "../../components/device-search.ts";
import { ScanIcon } from "../../components/icons.tsx";
import { MacEntryDialog } from "../../components/mac-entry-dialog.tsx";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useMcus, useSensors } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { SensorCard } from "./sensor-card.tsx";
import { SensorFormDialog, type SensorDraft, type SensorValues } from "./sensor-form-dialog.tsx";

const isSensorType = (t: string): t is SensorType => (SENSOR_TYPES as readonly string[]).includes(t);

const countOf = (n: number) => `${n} sensor${n === 1 ? "" : "s"}`;

const draftOf = (s: Sensor): SensorDraft => ({ sensorId: s.sensor_id, name: s.name, mac: s.mac, type: s.type, mcuId: s.mcu_id });

/** SPEC §2 Sensors: the controllers' layout for sensors. */
export default function SensorsPage() {
  const { core } = useAppData();
  const confirm = useConfirm();
  const sensors = useSensors();
  const mcus = useMcus();
  // A list kept in the store from an earlier visit stays on screen while it reloads.
  const [load, setLoad] = useState<"loading" | "ready" | "error">(sensors.length > 0 ? "ready" : "loading");
  const [query, setQuery] = useState("");
  const [type, setType] = useState(ALL_TYPES);
  const [scanning, setScanning] = useState(false);
  const [draft, setDraft] = useState<SensorDraft | null>(null);

  const loadSensors = useCallback(async () => {
    setLoad((s) => (s === "ready" ? s : "loading"));
    try {
      await core.loadSensors();
      setLoad("ready");
    } catch {
      // The toast id keeps StrictMode's double mount from showing it twice.
      notify.error("Failed to load sensors", { toastId: "sensors-load" });
      setLoad("error");
    }
  }, [core]);

  useEffect(() => {
    void loadSensors();
    // The MCU list names each card's MCU and fills the form's select.
    core.loadMcus().catch((err: unknown) => notify.info(messageOf(err, "Failed to fetch MCU by client"), { toastId: "mcus-load" }));
  }, [core, loadSensors]);

  const mcuNames = useMemo(() => new Map(mcus.map((m) => [m.mcu_id, m.name])), [mcus]);
  const deferredQuery = useDeferredValue(query);
  const shown = useMemo(() => sensors.filter((s) => matchesDevice(s, deferredQuery, type)), [sensors, deferredQuery, type]);

  async function lookUp(mac: string) {
    setScanning(false);
    try {
      const result = await core.scanSensor(mac);
      if (result.found) {
        setDraft(draftOf(result.device));
        notify.success(`Loaded sensor ${result.device.mac}`);
      } else {
        // Unclaimed stock: the inventory knows its type, the client chooses name and MCU.
        const { device } = result;
        setDraft({ sensorId: null, name: device.name, mac: device.mac, type: isSensorType(device.type) ? device.type : null, mcuId: null });
      }
    } catch (err) {
      if (err instanceof CoreError && err.status === 404) {
        // SPEC §4: an empty sensor scan result reads "Sensor {mac} Not Found, Or Already Used"
        // (the MAC may be unknown or claimed by another client; the server does not say which).
        const notice = `Sensor ${mac} Not Found, Or Already Used`;
        setDraft({ sensorId: null, name: "", mac, type: null, mcuId: null, notice });
        notify.info(notice);
      } else {
        notify.error(err instanceof CoreError ? (err.serverMessage ?? err.message) : String(err));
      }
    }
  }

  async function save(values: SensorValues) {
    if (!draft) return;
    try {
      await core.saveSensor(draft.sensorId, { ...values, name: values.name ?? "" });
      notify.success(draft.sensorId === null ? "Sensor created" : "Sensor updated");
      setDraft(null);
    } catch (err) {
      notify.error(messageOf(err, "Save failed"));
    }
  }

  async function remove(s: Sensor) {
    if (!(await confirm("Delete this sensor?"))) return;
    try {
      await core.deleteSensor(s.sensor_id);
      notify.success("Sensor deleted");
    } catch {
      notify.error("Delete failed");
    }
  }

  let content;
  if (load === "loading" && sensors.length === 0) {
    content = <Loading text="Loading sensors…" />;
  } else if (load === "error" && sensors.length === 0) {
    content = <LoadError text="Failed to load sensors" onRetry={() => void loadSensors()} />;
  } else if (sensors.length === 0) {
    content = (
      <EmptyState title="No sensors yet">
        <p>Scan the QR code on a sensor to add it to one of your MCUs.</p>
      </EmptyState>
    );
  } else if (shown.length === 0) {
    content = (
      <EmptyState title="No sensors found">
        <p>Try another name, MAC or type.</p>
      </EmptyState>
    );
  } else {
    content = (
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4 3xl:grid-cols-5 4xl:grid-cols-6" aria-label="Sensors">
        {shown.map((s) => (
          <SensorCard
            key={s.sensor_id}
            sensor={s}
            mcuName={(s.mcu_id !== null ? mcuNames.get(s.mcu_id) : undefined) ?? s.mcu_name}
            onEdit={() => setDraft(draftOf(s))}
            onDelete={() => void remove(s)}
          />
        ))}
      </ul>
    );
  }

  return (
    <section aria-labelledby="sensors-heading" className="space-y-4 4xl:space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="sensors-heading" className="text-2xl 4xl:text-4xl font-semibold text-gray-900">
          Sensors
        </h2>
        <button type="button" className="btn-primary 4xl:text-xl 4xl:px-6 4xl:py-3" onClick={() => setScanning(true)}>
          <ScanIcon /> Scan Sensor
        </button>
      </div>
      <DeviceFilterBar query={query} onQuery={setQuery} type={type} onType={setType} types={SENSOR_TYPES} searchLabel="Search sensors" />
      {sensors.length > 0 && (
        <p role="status" className="text-sm 4xl:text-lg text-gray-600">
          {shown.length === sensors.length ? countOf(sensors.length) : `${shown.length} of ${countOf(sensors.length)}`}
        </p>
      )}
      {content}
      <MacEntryDialog
        open={scanning}
        onClose={() => setScanning(false)}
        onResult={(mac) => void lookUp(mac)}
        title="Scan Sensor"
        instructions="Enter the MAC address printed under the sensor's QR code."
      />
      <SensorFormDialog draft={draft} mcus={mcus} onClose={() => setDraft(null)} onSave={save} />
    </section>
  );
}
