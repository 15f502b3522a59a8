import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { isMac, normalizeMac } from "../../contract/mac.ts";
import { TextField } from "./fields.tsx";

/**
 * The MAC printed under a label's QR code, typed or pasted: the scanner's way out when there is
 * no usable camera. Same checks and texts as the MAC entry dialog; answers a normalised MAC.
 */
export function MacEntryForm({ onResult, onCancel, autoFocus = false }: { onResult: (mac: string) => void; onCancel: () => void; autoFocus?: boolean }) {
  const { t } = useTranslation("common");
  const [value, setValue] = useState("");
  // Which check failed, so the message follows a change of language while it shows.
  const [error, setError] = useState<"required" | "invalid" | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!value.trim()) return setError("required");
    if (!isMac(value)) return setError("invalid");
    onResult(normalizeMac(value));
  }

  return (
    <form onSubmit={submit} noValidate>
      <TextField
        label={t("macEntry.label")}
        name="scanned-mac"
        placeholder="AA:BB:CC:DD:EE:FF"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        value={value}
        error={error && t(`macEntry.${error}`)}
        onChange={(e) => {
          setValue(e.target.value);
          setError(undefined);
        }}
        autoFocus={autoFocus}
      />
      <div className="flex justify-end gap-3">
        <button type="button" className="btn-secondary" onClick={onCancel}>
          {t("actions.cancel")}
        </button>
        <button type="submit" className="btn-primary">
          {t("macEntry.lookUp")}
        </button>
      </div>
    </form>
  );
}
