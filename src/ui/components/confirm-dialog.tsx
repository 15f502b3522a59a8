import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

type Ask = (text: string) => Promise<boolean>;
const ConfirmContext = createContext<Ask | null>(null);

/**
 * The confirmation of SPEC §5 ("Are you sure you want to delete this farm?" …) as an accessible
 * dialog: `await confirm(text)` answers true for OK, false for Cancel, Escape or a click outside.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [text, setText] = useState<string | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);
  const ask = useCallback<Ask>((t) => {
    resolver.current?.(false);
    setText(t);
    return new Promise<boolean>((resolve) => (resolver.current = resolve));
  }, []);
  const answer = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setText(null);
  };
  return (
    <ConfirmContext.Provider value={ask}>
      {children}
      <ConfirmDialog text={text} onAnswer={answer} />
    </ConfirmContext.Provider>
  );
}

export function ConfirmDialog({ text, onAnswer }: { text: string | null; onAnswer: (ok: boolean) => void }) {
  const { t } = useTranslation("common");
  return (
    <Dialog open={text !== null} onClose={() => onAnswer(false)} className="relative z-60" role="alertdialog">
      <div className="fixed inset-0 bg-black/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-sm bg-white rounded-2xl shadow-xl p-5">
          <DialogTitle className="text-base font-medium text-gray-900 mb-5">{text}</DialogTitle>
          <div className="flex justify-end gap-3">
            <button type="button" autoFocus onClick={() => onAnswer(false)} className="btn-secondary">
              {t("actions.cancel")}
            </button>
            <button type="button" onClick={() => onAnswer(true)} className="btn-danger">
              {t("actions.ok")}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}

export function useConfirm(): Ask {
  const ask = useContext(ConfirmContext);
  if (!ask) throw new Error("useConfirm outside ConfirmProvider");
  return ask;
}
