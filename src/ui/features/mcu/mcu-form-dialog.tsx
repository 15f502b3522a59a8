import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Farm, Mcu } from "../../../contract/entities.ts";
import { formatClaimCode, readDeviceLabel } from "../../../contract/claim-code.ts";
import { mcuAddForm, mcuEditForm } from "../../../contract/forms.ts";
import { normalizeMac } from "../../../contract/mac.ts";
import { SelectField, TextField } from "../../components/fields.tsx";
import { fieldError, FormAlert, refusalOf } from "../../components/form-refusal.tsx";
import { ScanIcon } from "../../components/icons.tsx";
import { QrScannerModal } from "../../components/qr-scanner-modal.tsx";
import { Modal } from "../../components/modal.tsx";
import { notify } from "../../components/toasts.ts";
import { useSubmitForm } from "../../components/use-submit-form.ts";
import { useAppData } from "../../data/provider.tsx";

/** Codes copied from a device's label (MAC, claim code): no autofill, no autocorrect, capitals. */
const LABEL_CODE_INPUT = { autoComplete: "off", autoCapitalize: "characters", spellCheck: false } as const;

/** What the modal is open for: adding (maybe with what a scanned label said) or editing an MCU. */
export type McuFormTarget = { kind: "add"; mac?: string; claimCode?: string } | { kind: "edit"; mcu: Mcu };

/** A scanned MCU label's MAC, with its claim code when the label carries one. */
export function scannedLabel(mac: string, text: string): { mac: string; claimCode?: string } {
  const label = readDeviceLabel(text);
  return label?.mac === mac && label.claimCode ? { mac, claimCode: label.claimCode } : { mac };
}

/** SPEC §2 Add/Edit MCU modal. */
export function McuFormDialog({ target, farms, onClose }: { target: McuFormTarget | null; farms: Farm[]; onClose: () => void }) {
  const { t } = useTranslation("mcu");
  return (
    <Modal open={target !== null} onClose={onClose} title={target?.kind === "edit" ? t("form.editTitle") : t("form.addTitle")}>
      {/* Mounted per opening, so each opening starts from its own defaults. */}
      {target && <McuForm target={target} farms={farms} onDone={onClose} />}
    </Modal>
  );
}

function McuForm({ target, farms, onDone }: { target: McuFormTarget; farms: Farm[]; onDone: () => void }) {
  const { t } = useTranslation("mcu");
  const { core } = useAppData();
  const editing = target.kind === "edit" ? target.mcu : null;
  const [scanning, setScanning] = useState(false);

  const [schema] = useState(() => (editing ? mcuEditForm(editing.mac) : mcuAddForm));
  // `refusal`: the server's refusal of the last attempt, until the part of the form it is about changes.
  const { form, fields, busy: saving, refusal, setRefusal } = useSubmitForm({
    schema,
    defaultValue: editing
      ? { name: editing.name, mac: editing.mac, farm_id: String(editing.farm_id), claim_code: "" }
      : { name: "", mac: target.kind === "add" ? (target.mac ?? "") : "", farm_id: "", claim_code: target.kind === "add" ? (target.claimCode ?? "") : "" },
    async send({ name, mac, farm_id, claim_code }) {
      const body = { name, mac: normalizeMac(mac), farm_id };
      if (editing) {
        const moved = body.mac !== editing.mac && claim_code;
        const saved = await core.updateMcu(editing.mcu_id, moved ? { ...body, claim_code: formatClaimCode(claim_code) } : body);
        notify.success(t("form.updated", { name: saved.name }));
      } else {
        const saved = await core.createMcu({ ...body, claim_code: formatClaimCode(claim_code ?? "") });
        notify.success(t("form.added", { name: saved.name }));
      }
      onDone();
    },
    refused(err) {
      // The modal stays open with what was typed, so a mistake can be fixed and sent again; it
      // says why too, as the toast may be missed or gone by the time the form is read again.
      const refused = refusalOf(err, editing ? t("form.updateFailed") : t("form.createFailed"));
      notify.error(editing ? refused.text : t("form.creationFailed", { reason: refused.text }));
      return refused;
    },
  });

  const { key: nameKey, ...nameProps } = getInputProps(fields.name, { type: "text" });
  const { key: macKey, ...macProps } = getInputProps(fields.mac, { type: "text" });
  const { key: farmKey, ...farmProps } = getSelectProps(fields.farm_id);
  const { key: codeKey, ...codeProps } = getInputProps(fields.claim_code, { type: "text" });
  // Editing: the claim code is asked for only once the MAC names another device.
  const macNow = fields.mac.value ?? "";
  const askCode = !editing || (macNow !== "" && normalizeMac(macNow) !== editing.mac);

  return (
    <>
      <form
        {...getFormProps(form)}
        aria-busy={saving || undefined}
        onInput={(event) => {
          const changed = (event.target as HTMLInputElement).name;
          if (refusal && (refusal.field === null || changed === fields.mac.name)) setRefusal(null);
        }}
      >
        <TextField key={nameKey} {...nameProps} label={t("form.name")} placeholder={t("form.namePlaceholder")} autoComplete="off" error={fields.name.errors} />
        <div className="flex items-start gap-2">
          <div className="flex-1 min-w-0">
            <TextField
              key={macKey}
              {...macProps}
              label={t("form.mac")}
              placeholder={t("form.macPlaceholder")}
              {...LABEL_CODE_INPUT}
              error={fieldError(fields.mac.errors, refusal, "mac")}
            />
          </div>
          {!editing && (
            <button type="button" className="btn-secondary mt-6 px-3" aria-label={t("form.scanMac")} title={t("form.scanMac")} onClick={() => setScanning(true)}>
              <ScanIcon className="text-lg" />
            </button>
          )}
        </div>
        {askCode && (
          <TextField
            key={codeKey}
            {...codeProps}
            label={t("form.claimCode")}
            placeholder={t("form.claimCodePlaceholder")}
            {...LABEL_CODE_INPUT}
            error={fields.claim_code.errors}
            hint={
              <p id={`${fields.claim_code.id}-hint`} className="mt-1 text-xs text-gray-500">
                {t("form.claimCodeHint")}
              </p>
            }
          />
        )}
        <SelectField key={farmKey} {...farmProps} label={t("form.farm")} error={fields.farm_id.errors}>
          <option value="">{t("form.selectFarm")}</option>
          {farms.map((f) => (
            <option key={f.farm_id} value={String(f.farm_id)}>
              {f.name}
            </option>
          ))}
        </SelectField>
        <FormAlert refusal={refusal} />
        <div className="flex justify-end gap-3 pt-2">
          <button type="button" className="btn-secondary" onClick={onDone}>
            {t("form.cancel")}
          </button>
          <button type="submit" className="btn-primary" disabled={saving}>
            {editing ? t("form.update") : t("form.add")}
          </button>
        </div>
      </form>
      <QrScannerModal
        open={scanning}
        onClose={() => setScanning(false)}
        title={t("scanner.title")}
        instructions={t("scanner.instructions")}
        onResult={(mac, text) => {
          setScanning(false);
          setRefusal(null);
          const label = scannedLabel(mac, text);
          // One update for both fields: a second one would be checked against the form before the first was applied.
          form.update({
            value: { name: fields.name.value ?? "", mac: label.mac, claim_code: label.claimCode ?? fields.claim_code.value ?? "", farm_id: fields.farm_id.value ?? "" },
          });
        }}
      />
    </>
  );
}
