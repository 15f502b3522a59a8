import { messageOf } from "./toasts.ts";

/**
 * The server's refusal of what a form sent, said inside the open form (besides SPEC §8's toast,
 * which a person filling the form may miss): under the field it names, else above the buttons.
 */
export interface FormRefusal {
  /** The form field the refusal is about; null when it is about the form as a whole. */
  field: "mac" | null;
  text: string;
}

/**
 * The server names the MAC at the start of each refusal about it ("MAC address … is already
 * registered", "… belongs to an MCU, not a sensor", "Invalid MAC address format"); a refusal about
 * several fields at once (a MAC and its claim code that do not match) names no single one.
 */
const ABOUT_THE_MAC = /^(MAC address |Invalid MAC address)/;

export function refusalOf(err: unknown, fallback: string): FormRefusal {
  const text = messageOf(err, fallback);
  return { field: ABOUT_THE_MAC.test(text) ? "mac" : null, text };
}

/** The error a field shows: its own check's, else the server's refusal when it names this field. */
export function fieldError(own: string[] | undefined, refusal: FormRefusal | null, field: NonNullable<FormRefusal["field"]>): string[] | string | undefined {
  return own ?? (refusal && refusal.field === field ? refusal.text : undefined);
}

/** A refusal about the whole form, announced when it appears. */
export function FormAlert({ refusal }: { refusal: FormRefusal | null }) {
  if (!refusal || refusal.field !== null) return null;
  return (
    <p role="alert" className="mb-4 rounded-lg bg-red-50 px-3 py-2 text-sm 4xl:text-lg text-red-800 ring-1 ring-inset ring-red-200">
      {refusal.text}
    </p>
  );
}
