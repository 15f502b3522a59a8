import { useEffect, useState, type FormEvent } from "react";
import { isMac, normalizeMac } from "../../contract/mac.ts";
import { TextField } from "./fields.tsx";
import { Modal } from "./modal.tsx";

/**
 * The scanner dialog's stand-in until the camera scanner lands: the MAC printed under the QR
 * code is typed or pasted. Same contract as the scanner: configurable title and instructions,
 * answers one normalised MAC (`AA:BB:CC:DD:EE:FF`).
 */
export function MacEntryDialog({
  open,
  onClose,
  onResult,
  title,
  instructions,
}: {
  open: boolean;
  onClose: () => void;
  onResult: (mac: string) => void;
  title: string;
  instructions: string;
}) {
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (open) {
      setValue("");
      setError(undefined);
    }
  }, [open]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!value.trim()) return setError("MAC address is required");
    if (!isMac(value)) return setError("Invalid MAC address format");
    onResult(normalizeMac(value));
  }

  return (
    <Modal open={open} onClose={onClose} title={title}>
      <form onSubmit={submit} noValidate>
        <p className="text-sm text-gray-600 mb-4">{instructions}</p>
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
          autoFocus
        />
        <div className="flex justify-end gap-3">
          <button type="button" className="btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn-primary">
            Look up
          </button>
        </div>
      </form>
    </Modal>
  );
}
