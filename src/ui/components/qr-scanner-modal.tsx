import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { BASIC_CONSTRAINTS, CameraUnsupportedError, cameraFailure, SCANNER_CONSTRAINTS, type CameraErrorReason } from "./camera-errors.ts";
import { MacEntryForm } from "./mac-entry-form.tsx";
import { Modal } from "./modal.tsx";
import { macFromScan } from "./scanned-mac.ts";

/** SPEC §4 camera states; SPEC §2 has a text (the `scanner` texts) for each but the error. */
type CameraPhase = "starting" | "ready" | "scanning" | "error";

/**
 * SPEC §2 QR scanner modal: the rear camera scans until a QR code holding a MAC is seen, then
 * answers that MAC normalised (`AA:BB:CC:DD:EE:FF`). The MAC can also be typed, so a phone
 * without a usable camera never blocks adding a device.
 */
export function QrScannerModal({
  open,
  onClose,
  onResult,
  title,
  instructions,
}: {
  open: boolean;
  onClose: () => void;
  /** The MAC, and the whole text of the code (an MCU's label also carries its claim code). */
  onResult: (mac: string, text: string) => void;
  title: string;
  instructions: string;
}) {
  return (
    <Modal open={open} onClose={onClose} title={title}>
      {/* Mounted only while open: unmounting is what stops the camera. */}
      {open && <Scanner onClose={onClose} onResult={onResult} instructions={instructions} />}
    </Modal>
  );
}

async function openCamera(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) throw new CameraUnsupportedError();
  try {
    return await navigator.mediaDevices.getUserMedia(SCANNER_CONSTRAINTS);
  } catch (err) {
    if (!cameraFailure(err).retryWithBasicConstraints) throw err;
    try {
      return await navigator.mediaDevices.getUserMedia(BASIC_CONSTRAINTS);
    } catch (retryErr) {
      throw new BasicRetryFailed(retryErr);
    }
  }
}

class BasicRetryFailed extends Error {
  constructor(readonly reason: unknown) {
    super("camera refused basic settings");
  }
}

function failureReason(err: unknown): CameraErrorReason {
  const failure = err instanceof BasicRetryFailed ? cameraFailure(err.reason, true) : cameraFailure(err);
  return failure.retryWithBasicConstraints ? "other" : failure.reason;
}

function Scanner({ onClose, onResult, instructions }: { onClose: () => void; onResult: (mac: string, text: string) => void; instructions: string }) {
  const { t } = useTranslation("common");
  const videoRef = useRef<HTMLVideoElement>(null);
  const [phase, setPhase] = useState<CameraPhase>("starting");
  const [errorReason, setErrorReason] = useState<CameraErrorReason>("other");
  const [rejected, setRejected] = useState(false);
  const [typing, setTyping] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // The decoder's callback outlives renders; it must call the latest onResult.
  const onResultRef = useRef(onResult);
  onResultRef.current = onResult;

  useEffect(() => {
    let cancelled = false;
    let stream: MediaStream | undefined;
    let stopDecoder: (() => void) | undefined;
    const stopAll = () => {
      stopDecoder?.();
      stream?.getTracks().forEach((t) => t.stop());
    };

    async function start() {
      setPhase("starting");
      setRejected(false);
      // The decoder is fetched while the camera starts: neither waits for the other.
      const decoderModule = import("@zxing/browser");
      decoderModule.catch(() => undefined);
      try {
        stream = await openCamera();
        if (cancelled) return stopAll();
        setPhase("ready");
        const { BrowserQRCodeReader } = await decoderModule;
        if (cancelled) return stopAll();
        // No TRY_HARDER or inversion hints: plain dark-on-light codes only (SPEC §9).
        const reader = new BrowserQRCodeReader(undefined, { delayBetweenScanAttempts: 150 });
        const controls = await reader.decodeFromStream(stream, videoRef.current ?? undefined, (result, _error, ctl) => {
          if (!result) return;
          const text = result.getText();
          const mac = macFromScan(text);
          if (!mac) return setRejected(true);
          ctl.stop();
          onResultRef.current(mac, text);
        });
        stopDecoder = () => controls.stop();
        if (cancelled) return stopAll();
        setPhase("scanning");
      } catch (err) {
        stopAll();
        if (cancelled) return;
        setErrorReason(failureReason(err));
        setPhase("error");
        setTyping(true);
      }
    }

    void start();
    return () => {
      cancelled = true;
      stopAll();
    };
  }, [attempt]);

  return (
    <div>
      <p className="text-sm 4xl:text-lg text-gray-600 mb-3">{instructions}</p>
      {phase === "error" ? (
        // SPEC §8's scanner error and camera text, in one place: here, beside its Try Again. A toast
        // would sit behind this dialog (inert while it is open) and outlive the error.
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 mb-4 text-center">
          <h3 className="text-sm 4xl:text-lg font-semibold text-red-800">{t("scanner.error")}</h3>
          <p className="text-sm 4xl:text-lg text-red-700 mt-1 mb-3">{t(`camera.${errorReason}`)}</p>
          <button type="button" className="btn-primary" onClick={() => setAttempt((n) => n + 1)}>
            {t("scanner.tryAgain")}
          </button>
        </div>
      ) : (
        <div className="mb-4">
          <div className="relative overflow-hidden rounded-lg bg-gray-900 aspect-video">
            <video ref={videoRef} className="h-full w-full object-cover" muted playsInline aria-label={t("scanner.preview")} />
            {/* A frame to aim at: the code decodes from anywhere in the picture. */}
            <div aria-hidden="true" className="pointer-events-none absolute inset-[15%] rounded-lg border-2 border-white/80" />
          </div>
          <p role="status" className="mt-2 text-sm 4xl:text-lg font-medium text-gray-700 text-center">
            {t(`scanner.${phase}`)}
          </p>
          {rejected && (
            <p role="alert" className="mt-1 text-sm 4xl:text-lg text-red-600 text-center">
              {t("scanner.notAMac")}
            </p>
          )}
        </div>
      )}
      {typing ? (
        <MacEntryForm onResult={(mac) => onResult(mac, mac)} onCancel={onClose} autoFocus={phase !== "error"} />
      ) : (
        <div className="flex flex-wrap justify-between gap-3">
          <button type="button" className="btn-secondary" onClick={() => setTyping(true)}>
            {t("scanner.typeInstead")}
          </button>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("actions.cancel")}
          </button>
        </div>
      )}
    </div>
  );
}
