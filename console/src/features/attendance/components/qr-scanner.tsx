import { Html5Qrcode, Html5QrcodeSupportedFormats } from 'html5-qrcode';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CameraProblemMessage } from '../../../components/camera-problem-message.tsx';
import { type CameraProblem, cameraAllowedHere, cameraProblemOf, noCamera } from '../../../lib/camera-problem.ts';

const CAMERA_KEY = 'scanner.camera';

/**
 * The camera scanner (spec 001 sections 2.4 and 9): QR codes only, 10 frames a second, a 250x250
 * box, the last camera used remembered. It starts when the page opens and stops when it closes.
 */
export function QrScanner({ onCode }: { onCode: (text: string) => void }) {
  const { t } = useTranslation();
  const elementId = `scanner-${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const [cameras, setCameras] = useState<{ id: string; label: string }[]>([]);
  const [cameraId, setCameraId] = useState<string | null>(() => localStorage.getItem(CAMERA_KEY));
  const [problem, setProblem] = useState<CameraProblem | null>(null);
  const latest = useRef(onCode);
  useEffect(() => {
    latest.current = onCode;
  }, [onCode]);

  useEffect(() => {
    const viewfinderBox = (width: number, height: number) => {
      const edge = Math.max(120, Math.floor(Math.min(width, height) * 0.8));
      return { width: edge, height: edge };
    };
    const scanner = new Html5Qrcode(elementId, {
      formatsToSupport: [Html5QrcodeSupportedFormats.QR_CODE],
      // The phone's own detector where it has one (Android's Chrome): a signed pass is a denser
      // code, which the bundled decoder misses on some frames; elsewhere that decoder still runs.
      experimentalFeatures: { useBarCodeDetectorIfSupported: true },
      verbose: false,
    });
    let stopped = false;
    const started = (async () => {
      if (!cameraAllowedHere()) throw new Error('not a secure context');
      const found = await Html5Qrcode.getCameras();
      if (stopped) return;
      setCameras(found);
      // The remembered camera, else the last one listed (on phones, usually the back camera).
      const camera = found.find((c) => c.id === cameraId) ?? found.at(-1);
      if (!camera) throw noCamera();
      await scanner.start(
        camera.id,
        // The box follows the view: on a phone the view is narrow, and a pass (a signed code,
        // version 7 or so) must fill most of what is decoded to be read from a distance.
        { fps: 10, qrbox: viewfinderBox },
        (text) => latest.current(text),
        () => {},
      );
      localStorage.setItem(CAMERA_KEY, camera.id);
      setProblem(null);
    })().catch((error: unknown) => {
      if (!stopped) setProblem(cameraProblemOf(error));
    });
    return () => {
      stopped = true;
      void started.finally(async () => {
        if (scanner.isScanning) await scanner.stop().catch(() => {});
        scanner.clear();
      });
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
            value={cameraId ?? cameras.at(-1)?.id}
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
