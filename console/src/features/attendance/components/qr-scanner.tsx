import { Html5Qrcode, Html5QrcodeScannerState, Html5QrcodeSupportedFormats } from 'html5-qrcode';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CameraProblemMessage } from '../../../components/camera-problem-message.tsx';
import { type CameraProblem, cameraAllowedHere, cameraProblemOf, noCamera } from '../../../lib/camera-problem.ts';

const CAMERA_KEY = 'scanner.camera';

/** The cameras the browser lists; without the camera's permission yet, their ids are empty. */
async function listedCameras() {
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices
    .filter((device) => device.kind === 'videoinput')
    .map(({ deviceId, label }) => ({ id: deviceId, label }));
}

/**
 * The camera scanner (spec 001 sections 2.4 and 9): QR codes only, 10 frames a second, a 250x250
 * box, the last camera used remembered. It starts when the page opens and stops when it closes.
 *
 * One camera is open at a time: many Android phones refuse to open a camera while another is
 * (NotReadableError, which the page would call "in use by another app"), so each start waits until
 * the scanner before it has stopped and cleared its view, which also keeps that clearing from
 * wiping the new camera's picture. And the cameras are listed without opening one (html5-qrcode's
 * getCameras opens the default camera to list them, the same refusal on those phones): the
 * remembered camera is opened by its id, else the one facing away (a phone's back camera).
 */
export function QrScanner({ onCode }: { onCode: (text: string) => void }) {
  const { t } = useTranslation();
  const elementId = `scanner-${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const [cameras, setCameras] = useState<{ id: string; label: string }[]>([]);
  const [cameraId, setCameraId] = useState<string | null>(() => localStorage.getItem(CAMERA_KEY));
  const [running, setRunning] = useState<string | null>(null);
  const [problem, setProblem] = useState<CameraProblem | null>(null);
  const latest = useRef(onCode);
  const lastStopped = useRef<Promise<void>>(Promise.resolve());
  useEffect(() => {
    latest.current = onCode;
  }, [onCode]);

  useEffect(() => {
    const viewfinderBox = (width: number, height: number) => {
      const edge = Math.max(120, Math.floor(Math.min(width, height) * 0.8));
      return { width: edge, height: edge };
    };
    let stopped = false;
    let scanner: Html5Qrcode | null = null;
    const started = lastStopped.current
      .then(async () => {
        if (stopped) return;
        if (!cameraAllowedHere()) throw new Error('not a secure context');
        const listed = await listedCameras();
        if (stopped) return;
        if (listed.length === 0) throw noCamera();
        const remembered = listed.find((camera) => camera.id !== '' && camera.id === cameraId);
        scanner = new Html5Qrcode(elementId, {
          formatsToSupport: [Html5QrcodeSupportedFormats.QR_CODE],
          // The phone's own detector where it has one (Android's Chrome): a signed pass is a denser
          // code, which the bundled decoder misses on some frames; elsewhere that decoder still runs.
          experimentalFeatures: { useBarCodeDetectorIfSupported: true },
          verbose: false,
        });
        await scanner.start(
          remembered ? remembered.id : { facingMode: 'environment' },
          // The box follows the view: on a phone the view is narrow, and a pass (a signed code,
          // version 7 or so) must fill most of what is decoded to be read from a distance.
          { fps: 10, qrbox: viewfinderBox },
          (text) => latest.current(text),
          () => {},
        );
        const opened = scanner.getRunningTrackSettings().deviceId ?? remembered?.id ?? null;
        // Now that the camera is allowed, the list has every camera's id and name.
        const named = (await listedCameras()).filter((camera) => camera.id !== '');
        // A camera chosen meanwhile is the one to remember, not this one, now being stopped.
        if (stopped) return;
        if (opened) localStorage.setItem(CAMERA_KEY, opened);
        setCameras(named);
        setRunning(opened);
        setProblem(null);
      })
      .catch((error: unknown) => {
        if (!stopped) setProblem(cameraProblemOf(error));
      });
    let cleanedUp!: () => void;
    const left = new Promise<void>((resolve) => (cleanedUp = resolve));
    lastStopped.current = Promise.all([started, left])
      .then(async () => {
        if (!scanner) return;
        // Started, if not yet showing a picture (its isScanning waits for the picture): a camera
        // left open here would stay open, its light on, and keep the next start from opening one.
        if (scanner.getState() !== Html5QrcodeScannerState.NOT_STARTED) await scanner.stop().catch(() => {});
        try {
          scanner.clear();
        } catch {
          // Stopped before its picture came: html5-qrcode closed the camera, then failed to remove
          // a view it had not yet made, and still counts itself started.
          document.getElementById(elementId)?.replaceChildren();
        }
      })
      .catch(() => {}); // the next start must not wait forever, nor fail, on this one's end
    return () => {
      stopped = true;
      cleanedUp();
    };
  }, [elementId, cameraId]);

  return (
    <div className="scanner">
      <div id={elementId} className="scanner-view" />
      {problem && <CameraProblemMessage problem={problem} fallback={t('round.cameraFailed')} />}
      {cameras.length > 1 && (
        <label>
          {t('round.camera')}{' '}
          <select
            value={cameraId ?? running ?? ''}
            onChange={(event) => {
              localStorage.setItem(CAMERA_KEY, event.target.value);
              setCameraId(event.target.value);
            }}
          >
            {cameras.map((camera) => (
              <option key={camera.id} value={camera.id}>
                {camera.label || camera.id}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}
