import { useTranslation } from "react-i18next";
import { useInstallPrompt } from "../pwa/install-prompt.ts";
import { PlusIcon } from "./icons.tsx";

/** SPEC §2 Dashboard: an install button, shown only while the browser offers installation. */
export function InstallButton() {
  const { t } = useTranslation("common");
  const { available, install } = useInstallPrompt();
  if (!available) return null;
  return (
    <button type="button" className="btn-primary" onClick={() => void install()}>
      <PlusIcon /> {t("install")}
    </button>
  );
}
