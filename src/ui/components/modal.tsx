import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { CloseIcon } from "./icons.tsx";

/**
 * A dialog: focus is trapped inside, Escape and the close button close it, and it is announced
 * by its title (Headless UI's Dialog).
 */
export function Modal({ open, onClose, title, children, wide = false }: { open: boolean; onClose: () => void; title: string; children: ReactNode; wide?: boolean }) {
  const { t } = useTranslation("common");
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-black/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-end sm:items-center justify-center p-0 sm:p-4 overflow-y-auto">
        <DialogPanel className={`w-full ${wide ? "sm:max-w-2xl 4xl:max-w-4xl" : "sm:max-w-md 4xl:max-w-2xl"} 4xl:text-xl bg-white rounded-t-2xl sm:rounded-2xl shadow-xl p-5 max-h-[100dvh] overflow-y-auto`}>
          <div className="flex items-start justify-between gap-4 mb-4">
            <DialogTitle className="text-lg font-semibold text-gray-900">{title}</DialogTitle>
            <button type="button" onClick={onClose} aria-label={t("actions.close")} className="p-1 rounded text-gray-500 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-brand-600">
              <CloseIcon />
            </button>
          </div>
          {children}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
