import { i18n } from "../i18n/i18n.ts";

/**
 * SPEC §8 "Camera": what the scanner tells the user when the camera cannot be opened.
 *
 * Mapping of getUserMedia's failures (DOMException names, plus the legacy Chrome names):
 * - no `navigator.mediaDevices.getUserMedia` (old browser, or a page not served securely)
 *   → Camera not supported in this browser.
 * - NotAllowedError, PermissionDeniedError, SecurityError (refused by the user, the browser
 *   settings or a permissions policy) → Camera permission denied. …
 * - NotFoundError, DevicesNotFoundError → No camera found on this device.
 * - NotSupportedError → Camera not supported on this device.
 * - NotReadableError, TrackStartError (the OS could not start the device, usually because
 *   another application holds it) → Camera is being used by another application.
 * - OverconstrainedError, ConstraintNotSatisfiedError → retry once with `{ video: true }`; when
 *   the basic retry fails too, its own failure is mapped (a second constraint failure counts as
 *   "anything else").
 * - anything else (AbortError, TypeError, unknown) → Failed to access camera. Please try again.
 */
export type CameraErrorReason = "browserUnsupported" | "permissionDenied" | "notFound" | "deviceUnsupported" | "busy" | "other";

/** What the scanner says for a reason, in the person's language (the `camera` texts of `common`). */
export const cameraErrorText = (reason: CameraErrorReason): string => i18n.t(`common:camera.${reason}`);

/** The rear camera of SPEC §9, and the basic settings of the retry when those are refused. */
export const SCANNER_CONSTRAINTS: MediaStreamConstraints = {
  audio: false,
  video: {
    facingMode: "environment",
    width: { min: 640, ideal: 1280, max: 1920 },
    height: { min: 480, ideal: 720, max: 1080 },
    aspectRatio: { ideal: 16 / 9 },
  },
};
export const BASIC_CONSTRAINTS: MediaStreamConstraints = { audio: false, video: true };

export type CameraFailure = { retryWithBasicConstraints: true } | { retryWithBasicConstraints: false; reason: CameraErrorReason };

const NAMES: Record<string, CameraErrorReason> = {
  NotAllowedError: "permissionDenied",
  PermissionDeniedError: "permissionDenied",
  SecurityError: "permissionDenied",
  NotFoundError: "notFound",
  DevicesNotFoundError: "notFound",
  NotSupportedError: "deviceUnsupported",
  NotReadableError: "busy",
  TrackStartError: "busy",
};
const CONSTRAINT_ERRORS = new Set(["OverconstrainedError", "ConstraintNotSatisfiedError"]);

/** Thrown by the scanner when the browser has no getUserMedia at all. */
export class CameraUnsupportedError extends Error {
  override name = "CameraUnsupportedError";
}

/**
 * What to do about a failed camera start. `basicTried` says whether this failure came from the
 * retry with basic settings already, so the retry happens once.
 */
export function cameraFailure(error: unknown, basicTried = false): CameraFailure {
  if (error instanceof CameraUnsupportedError) return { retryWithBasicConstraints: false, reason: "browserUnsupported" };
  // Not `instanceof DOMException`: older engines throw plain objects/errors carrying the name.
  const name = typeof error === "object" && error !== null && "name" in error && typeof error.name === "string" ? error.name : "";
  if (CONSTRAINT_ERRORS.has(name)) return basicTried ? { retryWithBasicConstraints: false, reason: "other" } : { retryWithBasicConstraints: true };
  return { retryWithBasicConstraints: false, reason: NAMES[name] ?? "other" };
}
