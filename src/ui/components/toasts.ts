import { toast, type ToastOptions, type ToastPosition } from "react-toastify";
import { CoreError } from "../../contract/core-error.ts";

/** SPEC §8/§9: toasts close after 5000 ms; the registration error after 3000 ms, top-centre. */
export const TOAST_AUTO_CLOSE_MS = 5000;

/** Every toast shows top-centre (the registration error of SPEC §8 too), clear of the pages' buttons. */
export const TOAST_POSITION: ToastPosition = "top-center";

export const notify = {
  success: (text: string, options?: ToastOptions) => toast.success(text, options),
  error: (text: string, options?: ToastOptions) => toast.error(text, options),
  info: (text: string, options?: ToastOptions) => toast.info(text, options),
};

/** The server's message for a failed call, or SPEC §8's fallback text when it sent none. */
export function messageOf(err: unknown, fallback: string): string {
  return err instanceof CoreError && err.serverMessage ? err.serverMessage : fallback;
}
