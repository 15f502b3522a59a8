import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { ZodType } from "zod";
import type { Mcu } from "../../contract/entities.ts";
import { SelectField, TextField } from "./fields.tsx";
import { fieldError, FormAlert, refusalOf, type FormRefusal } from "./form-refusal.tsx";
import { Modal } from "./modal.tsx";
import { useSubmitForm } from "./use-submit-form.ts";

/** Read-only values look fixed, not like inputs waiting for text. */
const READ_ONLY_CLASS = "block w-full rounded-lg border border-gray-200 bg-gray-100 px-3 py-2 text-gray-700 focus:outline-none focus:ring-2 focus:ring-brand-600/30";
/** A read-only value the server refused: outlined red like any field in error. */
const REFUSED_READ_ONLY_CLASS = READ_ONLY_CLASS.replace("border-gray-200", "border-red-500");

/** What the form starts from: a card's device, a scan result, or a bare scanned MAC. */
export interface DeviceDraft<Type extends string> {
  /** The device's id (unit_id or sensor_id); null while creating. */
  id: number | null;
  name: string;
  mac: string;
  /** null when the scanned MAC is unknown to the inventory: the user picks it. */
  type: Type | null;
  mcuId: number | null;
  /**
   * Why the form opened as it did (the kind's "not found" text). The toast saying so is outside
   * the dialog, which hides the rest of the page from screen readers: the dialog repeats it.
   */
  notice?: string;
}

/**
 * How a known type is shown (SPEC §2): the controller modal has a read-only Type field, the
 * sensor modal a disabled Type select.
 */
export type LockedTypeStyle = "read-only" | "disabled-select";

/** The form's raw fields, as Conform sees them before the kind's schema parses them. */
interface DeviceFields {
  name: string;
  mac: string;
  type: string;
  mcu_id: string;
}

interface DeviceFormOptions<Type extends string, Values> {
  mcus: readonly Mcu[];
  /** The kind's SPEC §5 schema (controllerForm, sensorForm). */
  schema: ZodType<Values>;
  types: readonly Type[];
  /** A type as the person reads it (the kind's label); the form sends the type itself. */
  typeLabel?: (type: Type) => string;
  lockedType: LockedTypeStyle;
  /**
   * Saves; the parent closes the dialog on success. On failure it rejects (after SPEC §8's toast)
   * and the dialog stays open with the values and the server's reason.
   */
  onSave: (values: Values) => Promise<void>;
}

/**
 * SPEC §2 controller and sensor modal: editable Name, read-only MAC, Type, Assign to MCU. The
 * type is chosen only for a MAC the inventory does not know (ARCHITECTURE "Decisions"), since
 * nothing else can supply it; the server refuses to change a device's type afterwards.
 */
export function DeviceFormDialog<Type extends string, Values>({
  draft,
  titles,
  onClose,
  ...options
}: DeviceFormOptions<Type, Values> & {
  draft: DeviceDraft<Type> | null;
  titles: { add: string; edit: string };
  onClose: () => void;
}) {
  // The MCU select is uncontrolled: if the MCU list arrives after the form opened, the form
  // starts again so its default MCU can be selected.
  return (
    <Modal open={draft !== null} onClose={onClose} title={draft?.id === null ? titles.add : titles.edit}>
      {draft && <DeviceForm key={`${draft.id}-${draft.mac}-${options.mcus.length > 0}`} draft={draft} onCancel={onClose} {...options} />}
    </Modal>
  );
}

function DeviceForm<Type extends string, Values>({
  draft,
  mcus,
  schema,
  types,
  typeLabel = (type) => type,
  lockedType,
  onCancel,
  onSave,
}: DeviceFormOptions<Type, Values> & { draft: DeviceDraft<Type>; onCancel: () => void }) {
  const { t } = useTranslation("common");
  // `refusal`: the server's refusal of the last attempt. The MAC cannot be changed here, so a
  // refusal about it stands until the next attempt; one about the form goes as soon as something changes.
  const { form, fields, busy: saving, refusal, setRefusal } = useSubmitForm<ZodType<Values>, DeviceFields, FormRefusal>({
    schema,
    defaultValue: { name: draft.name, mac: draft.mac, type: draft.type ?? "", mcu_id: draft.mcuId === null ? "" : String(draft.mcuId) },
    send: onSave,
    refused: (err) => refusalOf(err, t("device.saveFailed")),
  });
  const typeLocked = draft.type !== null;
  const macError = fieldError(fields.mac.errors, refusal, "mac");
  const { name: typeName, ...typeSelect } = getSelectProps(fields.type);

  return (
    <form {...getFormProps(form)} onInput={() => refusal?.field === null && setRefusal(null)}>
      {draft.notice && (
        <p role="status" className="mb-4 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900">
          {draft.notice}
        </p>
      )}
      <TextField label={t("device.name")} {...getInputProps(fields.name, { type: "text" })} error={fields.name.errors} autoComplete="off" autoFocus />
      <TextField
        label={t("device.mac")}
        {...getInputProps(fields.mac, { type: "text" })}
        readOnly
        className={(macError ? REFUSED_READ_ONLY_CLASS : READ_ONLY_CLASS) + " font-mono"}
        error={macError}
      />
      {typeLocked && lockedType === "read-only" ? (
        <>
          {/* The person reads the type's label; the form sends the type itself. */}
          <TextField label={t("device.type")} value={typeLabel(draft.type!)} readOnly className={READ_ONLY_CLASS} />
          <input type="hidden" name={typeName} value={draft.type ?? ""} />
        </>
      ) : (
        <>
          {/* A disabled select is not submitted, so the fixed type travels in a hidden input. */}
          <SelectField label={t("device.type")} {...typeSelect} name={typeLocked ? undefined : typeName} disabled={typeLocked} error={fields.type.errors}>
            <option value="">{t("device.chooseType")}</option>
            {types.map((type) => (
              <option key={type} value={type}>
                {typeLabel(type)}
              </option>
            ))}
          </SelectField>
          {typeLocked && <input type="hidden" name={typeName} value={draft.type ?? ""} />}
        </>
      )}
      <SelectField label={t("device.assignMcu")} {...getSelectProps(fields.mcu_id)} error={fields.mcu_id.errors}>
        <option value="">{t("device.chooseMcu")}</option>
        {mcus.map((m) => (
          <option key={m.mcu_id} value={m.mcu_id}>
            {m.name} ({m.mac})
          </option>
        ))}
      </SelectField>
      {mcus.length === 0 && (
        <p className="-mt-2 mb-4 text-sm text-gray-600">
          <Trans t={t} i18nKey="device.noMcus" components={{ link: <Link to="/mcu" className="text-brand-700 underline" /> }} />
        </p>
      )}
      <FormAlert refusal={refusal} />
      <div className="flex justify-end gap-3 mt-2">
        <button type="button" className="btn-secondary" onClick={onCancel}>
          {t("actions.cancel")}
        </button>
        <button type="submit" className="btn-primary" disabled={saving}>
          {draft.id === null ? t("actions.create") : t("actions.update")}
        </button>
      </div>
    </form>
  );
}
