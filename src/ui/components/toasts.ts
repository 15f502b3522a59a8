import { toast, type Id, type ToastOptions, type ToastPosition } from "react-toastify";
import { refusalText } from "./server-refusal.ts";

/** SPEC §8/§9: toasts close after 5000 ms; the registration error after 3000 ms, top-centre. */
export const TOAST_AUTO_CLOSE_MS = 5000;

/** Every toast shows top-centre (the registration error of SPEC §8 too), clear of the pages' buttons. */
export const TOAST_POSITION: ToastPosition = "top-center";

/** How many toasts show at once: three stacked stay clear of the page's buttons. */
export const MAX_SHOWN_TOASTS = 3;

export const notify = {
  success: (text: string, options?: ToastOptions) => toast.success(text, options),
  error: (text: string, options?: ToastOptions) => toast.error(text, options),
  info: (text: string, options?: ToastOptions) => toast.info(text, options),
};

/**
 * Keeps at most `max` toasts on screen by closing the oldest when a new one comes. The
 * container's own `limit` would instead hold the new toast back until an old one closes, so the
 * latest message (often the answer to what the user just did) would wait behind stale ones.
 * Returns the unsubscribe.
 */
export function keepNewestToasts(max: number = MAX_SHOWN_TOASTS): () => void {
  const shown: Id[] = [];
  return toast.onChange(({ id, status }) => {
    if (status === "added") {
      shown.push(id);
      while (shown.length > max) toast.dismiss(shown.shift());
    } else if (status === "removed") {
      const at = shown.indexOf(id);
      if (at >= 0) shown.splice(at, 1);
    }
  });
}

/**
 * The server's message for a failed call (in English to the letter; in another language the
 * translation of its reason, or of its code: server-refusal.ts), or SPEC §8's fallback text (the
 * caller's, already in the person's language) when it sent none.
 */
export function messageOf(err: unknown, fallback: string): string {
  return refusalText(err) ?? fallback;
}
