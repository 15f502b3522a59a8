import { useState, type FormEvent } from "react";
import { isMac, normalizeMac } from "../../contract/mac.ts";
import { TextField } from "./fields.tsx";

/**
 * The MAC printed under a label's QR code, typed or pasted: the scanner's way out when there is
 * no usable camera. Same checks and texts as the MAC entry dialog; answers a normalised MAC.
 */
export function MacEntryForm({ onResult, onCancel, autoFocus = false }: { onResult: (mac: string) => void; onCancel: () => void; autoFocus?: boolean }) {
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!value.trim()) return setError("MAC address is required");
    if (!isMac(value)) return setError("Invalid MAC address format");
    onResult(normalizeMac(value));
  }

  return (
    <form onSubmit={submit} noValidate>
      <TextField
        label="MAC Address"
        name="scanned-mac"
        placeholder="AA:BB:CC:DD:EE:FF"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        value={value}
        error={error}
        onChange={(e) => {
          setValue(e.target.value);
          setError(undefined);
        }}
        autoFocus={autoFocus}
      />
      <div className="flex justify-end gap-3">
        <button type="button" className="btn-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn-primary">
          Look up
        </button>
      </div>
    </form>
  );
}
