/**
 * The forms' validation messages are written when a value is checked, by the writer the app
 * installs at start: its catalogue's `forms` texts in the reader's language at that moment, so a
 * change of language needs no new schemas. Until one is installed a message is its key.
 */
export type FormTextValues = Record<string, string | number>;
export type FormTextWriter = (key: string, values?: FormTextValues) => string;

let writer: FormTextWriter = (key) => key;

export function writeFormTextsWith(w: FormTextWriter): void {
  writer = w;
}

/** A validation message in the reader's language. */
export const formText = (key: string, values?: FormTextValues): string => writer(key, values);
