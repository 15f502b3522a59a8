import { useId, useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { EyeIcon, EyeOffIcon } from "./icons.tsx";

/**
 * Form fields with a visible label tied to the control, the error under it (announced, and
 * linked with aria-describedby), and aria-invalid while it stands. Pass Conform's
 * `getInputProps(...)` etc. as the control props.
 */
interface FieldShell {
  label: string;
  error?: string | string[];
  hint?: ReactNode;
}

function useFieldIds(id?: string) {
  const auto = useId();
  const controlId = id ?? auto;
  return { controlId, errorId: `${controlId}-error` };
}

function ErrorText({ id, error }: { id: string; error?: string | string[] }) {
  const text = Array.isArray(error) ? error[0] : error;
  return text ? (
    <p id={id} role="alert" className="mt-1 text-sm text-red-600">
      {text}
    </p>
  ) : null;
}

// An invalid field stays red while focused, so the error is not hidden by the focus ring.
const controlClass = (invalid: boolean) =>
  `block w-full rounded-lg border ${invalid ? "border-red-500 focus:border-red-600 focus:ring-red-500/30" : "border-gray-300 focus:border-brand-600 focus:ring-brand-600/30"} bg-white px-3 py-2 text-gray-900 placeholder-gray-400 focus:outline-none focus:ring-2 disabled:bg-gray-100 disabled:text-gray-500`;

export function TextField({ label, error, hint, id, ...input }: FieldShell & InputHTMLAttributes<HTMLInputElement>) {
  const { controlId, errorId } = useFieldIds(id);
  return (
    <div className="mb-4">
      <label htmlFor={controlId} className="block text-sm font-medium text-gray-700 mb-1">
        {label}
      </label>
      <input id={controlId} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} className={controlClass(Boolean(error))} {...input} />
      {hint}
      <ErrorText id={errorId} error={error} />
    </div>
  );
}

/** A password input with a show/hide toggle (SPEC §2). */
export function PasswordField({ label, error, id, ...input }: FieldShell & InputHTMLAttributes<HTMLInputElement>) {
  const { t, i18n } = useTranslation("common");
  const { controlId, errorId } = useFieldIds(id);
  const [shown, setShown] = useState(false);
  // "Show password": the field's label inside a sentence, lower-cased as the language does it.
  const named = label.toLocaleLowerCase(i18n.language);
  return (
    <div className="mb-4">
      <label htmlFor={controlId} className="block text-sm font-medium text-gray-700 mb-1">
        {label}
      </label>
      <div className="relative">
        <input
          id={controlId}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={`${controlClass(Boolean(error))} pe-11`}
          {...input}
          type={shown ? "text" : "password"}
        />
        <button
          type="button"
          onClick={() => setShown((s) => !s)}
          aria-label={shown ? t("fields.hide", { label: named }) : t("fields.show", { label: named })}
          aria-pressed={shown}
          className="absolute inset-y-0 end-0 px-3 text-gray-500 hover:text-gray-800"
        >
          {shown ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      </div>
      <ErrorText id={errorId} error={error} />
    </div>
  );
}

export function SelectField({ label, error, id, children, ...select }: FieldShell & SelectHTMLAttributes<HTMLSelectElement>) {
  const { controlId, errorId } = useFieldIds(id);
  return (
    <div className="mb-4">
      <label htmlFor={controlId} className="block text-sm font-medium text-gray-700 mb-1">
        {label}
      </label>
      <select id={controlId} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} className={controlClass(Boolean(error))} {...select}>
        {children}
      </select>
      <ErrorText id={errorId} error={error} />
    </div>
  );
}

export function TextAreaField({ label, error, id, ...area }: FieldShell & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { controlId, errorId } = useFieldIds(id);
  return (
    <div className="mb-4">
      <label htmlFor={controlId} className="block text-sm font-medium text-gray-700 mb-1">
        {label}
      </label>
      <textarea id={controlId} rows={3} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} className={controlClass(Boolean(error))} {...area} />
      <ErrorText id={errorId} error={error} />
    </div>
  );
}
