import { useInstallPrompt } from "../pwa/install-prompt.ts";
import { PlusIcon } from "./icons.tsx";

/** SPEC §2 Dashboard: an install button, shown only while the browser offers installation. */
export function InstallButton() {
  const { available, install } = useInstallPrompt();
  if (!available) return null;
  return (
    <button type="button" className="btn-primary" onClick={() => void install()}>
      <PlusIcon /> Install App
    </button>
  );
}
