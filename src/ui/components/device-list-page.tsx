import { useCallback, useDeferredValue, useEffect, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { CoreError } from "../../contract/core-error.ts";
import { useFarmsWhere, useMcuRefusal } from "../data/farm-roles.ts";
import { useCollection } from "../data/hooks.ts";
import { useAppData } from "../data/provider.tsx";
import { formatFixed } from "../i18n/format.ts";
import { i18n, useLocale } from "../i18n/i18n.ts";
import { useConfirm } from "./confirm-dialog.tsx";
import { DeviceCard } from "./device-card.tsx";
import { DeviceFilterBar } from "./device-filter-bar.tsx";
import { DeviceFormDialog, type DeviceDraft } from "./device-form-dialog.tsx";
import type { DeviceKind, ListedDevice } from "./device-kind.ts";
import { ALL_TYPES, matchesDevice } from "./device-search.ts";
import { ScanIcon } from "./icons.tsx";
import { QrScannerModal } from "./qr-scanner-modal.tsx";
import { RefusalNote, useRefusalOnEveryFarm, withRefusal } from "./refusal-note.tsx";
import { EmptyState, LoadError, Loading } from "./states.tsx";
import { messageOf, notify } from "./toasts.ts";
import { refusalText } from "./server-refusal.ts";

/**
 * SPEC §2 System Controllers and Sensors: scan to add or edit, search and filter, edit and
 * delete cards. The two screens behave the same; `kind` supplies what differs. What the person's
 * role may not do is off with the reason: a device follows its MCU's farm.
 */
export function DeviceListPage<Device extends ListedDevice<Type>, Type extends string, Values>({
  kind,
  devices,
}: {
  /** A module constant: the load effect depends on it. */
  kind: DeviceKind<Device, Type, Values>;
  devices: readonly Device[];
}) {
  // The kind's texts come from the catalogue as they are read: a change of language or digits
  // renders the page again, and they follow.
  const { t } = useTranslation("common");
  useLocale();
  const { core } = useAppData();
  const confirm = useConfirm();
  const mcus = useCollection("mcus");
  const { texts } = kind;
  const typeLabel = (type: Type) => kind.typeLabel?.(type) ?? type;
  // A list kept in the store from an earlier visit stays on screen while it reloads.
  const [load, setLoad] = useState<"loading" | "ready" | "error">(devices.length > 0 ? "ready" : "loading");
  const [query, setQuery] = useState("");
  const [type, setType] = useState(ALL_TYPES);
  const [scanning, setScanning] = useState(false);
  const [draft, setDraft] = useState<DeviceDraft<Type> | null>(null);
  // Scanning adds or edits: it needs a farm where the role manages devices, and the form's MCU
  // choice offers only the MCUs on those farms.
  const scanRefusal = useRefusalOnEveryFarm("manageDevices");
  const scanReasonId = useId();
  const managedFarms = useFarmsWhere("manageDevices");
  const assignable = useMemo(() => (managedFarms === null ? mcus : mcus.filter((m) => managedFarms.has(m.farm_id))), [mcus, managedFarms]);

  const loadDevices = useCallback(async () => {
    setLoad((s) => (s === "ready" ? s : "loading"));
    try {
      await kind.load(core);
      setLoad("ready");
    } catch {
      notify.error(kind.texts.loadFailed, { toastId: kind.texts.loadFailedToastId });
      setLoad("error");
    }
  }, [core, kind]);

  useEffect(() => {
    void loadDevices();
    // The MCU list names each card's MCU and fills the form's select.
    core.loadMcus().catch((err: unknown) => notify.info(messageOf(err, i18n.t("common:device.mcusLoadFailed")), { toastId: "mcus-load" }));
  }, [core, loadDevices]);

  const mcuNames = useMemo(() => new Map(mcus.map((m) => [m.mcu_id, m.name])), [mcus]);
  const deferredQuery = useDeferredValue(query);
  const shown = useMemo(() => devices.filter((d) => matchesDevice(d, deferredQuery, type)), [devices, deferredQuery, type]);

  const draftOf = (d: Device): DeviceDraft<Type> => ({ id: kind.idOf(d), name: d.name, mac: d.mac, type: d.type, mcuId: d.mcu_id });
  const isKnownType = (t: string): t is Type => (kind.types as readonly string[]).includes(t);

  async function lookUp(mac: string) {
    setScanning(false);
    try {
      const result = await kind.scan(core, mac);
      if (result.found) {
        setDraft(draftOf(result.device));
        notify.success(texts.loaded(result.device.mac));
      } else {
        // Unclaimed stock: the inventory knows its type, the client chooses name and MCU.
        const { device } = result;
        setDraft({ id: null, name: device.name, mac: device.mac, type: isKnownType(device.type) ? device.type : null, mcuId: null });
      }
    } catch (err) {
      if (err instanceof CoreError && err.status === 404) {
        const notice = texts.notFound(mac);
        setDraft({ id: null, name: "", mac, type: null, mcuId: null, notice });
        notify.info(notice);
      } else {
        notify.error(err instanceof CoreError ? (refusalText(err) ?? err.message) : String(err));
      }
    }
  }

  async function save(values: Values) {
    if (!draft) return;
    try {
      await kind.save(core, draft.id, values);
      notify.success(draft.id === null ? texts.created : texts.updated);
      setDraft(null);
    } catch (err) {
      notify.error(messageOf(err, t("device.saveFailed")));
      // The open form shows the reason too.
      throw err;
    }
  }

  async function remove(d: Device) {
    if (!(await confirm(texts.confirmDelete))) return;
    try {
      await kind.remove(core, kind.idOf(d));
      notify.success(texts.deleted);
    } catch (err) {
      notify.error(withRefusal(t("device.deleteFailed"), err));
    }
  }

  let content;
  if (load === "loading" && devices.length === 0) {
    content = <Loading text={texts.loading} />;
  } else if (load === "error" && devices.length === 0) {
    content = <LoadError text={texts.loadFailed} onRetry={() => void loadDevices()} />;
  } else if (devices.length === 0) {
    content = (
      <EmptyState title={texts.emptyTitle}>
        <p>{texts.emptyHint}</p>
      </EmptyState>
    );
  } else if (shown.length === 0) {
    content = (
      <EmptyState title={texts.noMatchTitle}>
        <p>{t("device.noMatchHint")}</p>
      </EmptyState>
    );
  } else {
    content = (
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4 3xl:grid-cols-5 4xl:grid-cols-6" aria-label={texts.listLabel}>
        {shown.map((d) => (
          <DeviceItem
            key={kind.idOf(d)}
            mcuId={d.mcu_id}
            name={d.name}
            mac={d.mac}
            type={typeLabel(d.type)}
            mcuName={(d.mcu_id !== null ? mcuNames.get(d.mcu_id) : undefined) ?? d.mcu_name}
            badgeClass={kind.badgeClass}
            unnamed={kind.unnamed}
            onEdit={() => setDraft(draftOf(d))}
            onDelete={() => void remove(d)}
          />
        ))}
      </ul>
    );
  }

  return (
    <section aria-labelledby={texts.headingId} className="space-y-4 4xl:space-y-6">
      {/* The top bar shows the sidebar entry's name as the page's one visible title; SPEC's
          title names the section for screen readers. */}
      <div className="flex flex-wrap items-center justify-end gap-3">
        <h2 id={texts.headingId} className="sr-only">
          {texts.heading}
        </h2>
        <button
          type="button"
          className="btn-primary 4xl:text-xl 4xl:px-6 4xl:py-3"
          onClick={() => setScanning(true)}
          disabled={scanRefusal !== null}
          aria-describedby={scanRefusal ? scanReasonId : undefined}
        >
          <ScanIcon /> {texts.scan}
        </button>
        <RefusalNote id={scanReasonId} text={scanRefusal} className="basis-full text-end" />
      </div>
      <DeviceFilterBar query={query} onQuery={setQuery} type={type} onType={setType} types={kind.types} typeLabel={(value) => typeLabel(value as Type)} searchLabel={texts.searchLabel} />
      {devices.length > 0 && (
        <p role="status" className="text-sm 4xl:text-lg text-gray-600">
          {shown.length === devices.length ? texts.count(devices.length) : t("device.shownOf", { shown: formatFixed(shown.length, 0), all: texts.count(devices.length) })}
        </p>
      )}
      {content}
      <QrScannerModal open={scanning} onClose={() => setScanning(false)} onResult={(mac) => void lookUp(mac)} title={texts.scan} instructions={texts.scanInstructions} />
      <DeviceFormDialog
        draft={draft}
        titles={{ add: texts.addTitle, edit: texts.editTitle }}
        mcus={assignable}
        schema={kind.schema}
        types={kind.types}
        typeLabel={typeLabel}
        lockedType={kind.lockedType}
        onClose={() => setDraft(null)}
        onSave={save}
      />
    </section>
  );
}

/** MCU ids start at 1: this one names no MCU, for a device on none. */
const NO_MCU = 0;

/**
 * A device's card with what the person's role may do to it: its MCU's farm decides. A device on
 * no MCU names no farm (nor its account): it is off only where the role manages devices on no farm.
 */
function DeviceItem({ mcuId, ...card }: Omit<Parameters<typeof DeviceCard>[0], "refusal"> & { mcuId: number | null }) {
  const onMcu = useMcuRefusal(mcuId ?? NO_MCU, "manageDevices");
  const everywhere = useRefusalOnEveryFarm("manageDevices");
  return <DeviceCard {...card} refusal={mcuId === null ? everywhere : onMcu} />;
}
