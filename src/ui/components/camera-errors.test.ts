import { beforeAll, describe, expect, it } from "vitest";
import { startTexts } from "../../test-support/i18n.ts";
import { CameraUnsupportedError, cameraErrorText, cameraFailure as failureOf } from "./camera-errors.ts";

// getUserMedia rejects with DOMExceptions; a plain object with the name stands in (node realm).
const named = (name: string) => Object.assign(new Error(name), { name });

/** The failure as the scanner says it: its reason's text (SPEC §8's English here). */
function cameraFailure(...args: Parameters<typeof failureOf>) {
  const failure = failureOf(...args);
  return failure.retryWithBasicConstraints ? failure : { retryWithBasicConstraints: false, text: cameraErrorText(failure.reason) };
}

describe("cameraFailure", () => {
  beforeAll(() => startTexts());

  it("says the browser cannot use a camera when getUserMedia is missing", () => {
    expect(cameraFailure(new CameraUnsupportedError())).toEqual({ retryWithBasicConstraints: false, text: "Camera not supported in this browser." });
  });

  it.each(["NotAllowedError", "PermissionDeniedError", "SecurityError"])("maps %s to the permission text", (name) => {
    expect(cameraFailure(named(name))).toEqual({ retryWithBasicConstraints: false, text: "Camera permission denied. Please allow camera access and try again." });
  });

  it.each(["NotFoundError", "DevicesNotFoundError"])("maps %s to no camera found", (name) => {
    expect(cameraFailure(named(name))).toEqual({ retryWithBasicConstraints: false, text: "No camera found on this device." });
  });

  it("maps NotSupportedError to camera not supported on this device", () => {
    expect(cameraFailure(named("NotSupportedError"))).toEqual({ retryWithBasicConstraints: false, text: "Camera not supported on this device." });
  });

  it.each(["NotReadableError", "TrackStartError"])("maps %s to a camera busy in another application", (name) => {
    expect(cameraFailure(named(name))).toEqual({ retryWithBasicConstraints: false, text: "Camera is being used by another application." });
  });

  it.each(["OverconstrainedError", "ConstraintNotSatisfiedError"])("retries once with basic settings on %s", (name) => {
    expect(cameraFailure(named(name))).toEqual({ retryWithBasicConstraints: true });
    expect(cameraFailure(named(name), true)).toEqual({ retryWithBasicConstraints: false, text: "Failed to access camera. Please try again." });
  });

  it("maps the basic retry's own failure like any first failure", () => {
    expect(cameraFailure(named("NotReadableError"), true)).toEqual({ retryWithBasicConstraints: false, text: "Camera is being used by another application." });
  });

  it.each([named("AbortError"), new TypeError("bad constraints"), "boom", null, undefined])("maps anything else (%s) to the generic text", (err) => {
    expect(cameraFailure(err)).toEqual({ retryWithBasicConstraints: false, text: "Failed to access camera. Please try again." });
  });
});
