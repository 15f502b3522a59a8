import { normalizeInvitationCode } from "../../../contract/team-values.ts";

/** A code as it is read aloud or copied by hand: groups of four ("ABCD EFGH …"). */
export const groupedCode = (code: string): string => normalizeInvitationCode(code).replace(/(.{4})(?=.)/g, "$1 ");

/** The link that opens the Join screen with the code filled in. */
export const joinLink = (origin: string, code: string): string => `${origin}/join?${new URLSearchParams({ code: normalizeInvitationCode(code) }).toString()}`;

/**
 * Puts `text` on the clipboard: the Clipboard API where the page may use it (a secure context),
 * otherwise the older copy command on a hidden text area (a farm server reached over plain HTTP on
 * the local network). False when neither worked: the code stays on screen to copy by hand.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, page not focused): the fallback below may still work.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
