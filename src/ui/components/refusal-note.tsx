import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { CoreError } from "../../contract/core-error.ts";
import type { FarmRole } from "../../contract/team.ts";
import { can, higherRole } from "../../contract/team-values.ts";
import type { Right } from "../../contract/team.ts";
import { roleRefusalText } from "../data/farm-roles.ts";
import { useCollection } from "../data/hooks.ts";
import { i18n } from "../i18n/i18n.ts";
import { refusalText } from "./server-refusal.ts";

/**
 * Why a control is switched off for the person's role, in the sentence the server's 403 uses
 * (contract/team.ts), as the caller gives it (in the person's language). It stands beside the control and is the control's description
 * (`aria-describedby` its id): a tooltip reaches neither a touch screen nor a screen reader
 * reliably. Nothing shows while the person may act, so a person who owns their farms sees SPEC's screen.
 */
export function RefusalNote({ id, text, className = "" }: { id: string; text: string | null; className?: string }) {
  if (!text) return null;
  return (
    // The padlock runs in the text, so it stays beside the first word however the note is aligned and wrapped.
    <p id={id} className={`text-xs 4xl:text-lg text-gray-600 ${className}`}>
      <LockIcon className="inline -mt-0.5 me-1 align-middle text-gray-500" />
      {text}
    </p>
  );
}

/** A small padlock: the note is about a permission, not a fault. */
function LockIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" className={className}>
      <path d="M5 11h14v10H5zM8 11V7a4 4 0 0 1 8 0v4" />
    </svg>
  );
}

/**
 * An icon button looks the same disabled or not (the `icon-btn` shortcut has no disabled style):
 * one switched off by a refusal must look off, and not light up under the pointer.
 */
export const REFUSED_ICON_BUTTON = "disabled:opacity-40 disabled:cursor-not-allowed disabled:hover:bg-transparent disabled:hover:text-gray-600";

/**
 * Why the person may do `right` on none of their farms (an Add button whose picker would offer no
 * farm), or null when some farm allows it or the roles are not known yet. Their highest role
 * among those farms speaks, as the farm they would most expect to act on.
 */
export function useRefusalOnEveryFarm(right: Right): string | null {
  const { t } = useTranslation("team");
  const select = useCallback((list: readonly FarmRole[]) => (list.length === 0 || list.some((r) => can(r.role, right)) ? null : list.map((r) => r.role).reduce(higherRole)), [right]);
  const role = useCollection("farmRoles", select);
  return role && roleRefusalText(t, role, right);
}

/**
 * SPEC §8's fixed failure text, with the server's sentence after it when the server refused the
 * person's role (403): the roles may have changed since the screen showed the control. A person
 * who owns their farms is never refused so, and keeps SPEC's text.
 */
export function withRefusal(text: string, err: unknown): string {
  const reason = err instanceof CoreError && err.status === 403 ? refusalText(err) : null;
  return reason ? i18n.t("common:refusal.withReason", { text, reason }) : text;
}
