import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CameraProblemMessage } from '../../../components/camera-problem-message.tsx';
import { type CameraProblem, cameraProblemOf } from '../../../lib/camera-problem.ts';

type CameraState = 'idle' | 'requesting' | 'ready' | 'captured';
interface Status {
  tone: 'success' | 'info' | 'error';
  text: string;
}

/** The spec's constants (spec 001 section 9): 1280x720 front camera, a 300 ms flash, messages for 3 s. */
const VIDEO: MediaTrackConstraints = { width: { ideal: 1280 }, height: { ideal: 720 }, facingMode: 'user' };
const FLASH_MS = 300;
const STATUS_MS = 3000;

/** camera-photo-2026-11-23T08-15-02-123Z.png: sortable, and safe in every file system. */
const photoName = (at: Date) => `camera-photo-${at.toISOString().replace(/[:.]/g, '-')}.png`;

/**
 * Camera (/camera, spec 001 sections 2.13 and 4): start, capture (with a flash), retake, download
 * as PNG and stop. The camera is released on Stop and when leaving the page.
 */
export function CameraPage() {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const [state, setState] = useState<CameraState>('idle');
  const [photo, setPhoto] = useState<string | null>(null);
  const [flash, setFlash] = useState(false);
  const [status, setStatus] = useState<Status | null>(null);
  const [problem, setProblem] = useState<CameraProblem | null>(null);

  // Success and info go away after 3 seconds; an error stays until something else happens.
  useEffect(() => {
    if (!status || status.tone === 'error') return;
    const timer = setTimeout(() => setStatus(null), STATUS_MS);
    return () => clearTimeout(timer);
  }, [status]);

  // Each ask for the camera, numbered: one released meanwhile (Stop, or leaving the page while the
  // phone was still asking or waking its camera) is closed the moment it opens, never left on.
  const asked = useRef(0);
  const release = useCallback(() => {
    asked.current += 1;
    stream.current?.getTracks().forEach((track) => track.stop());
    stream.current = null;
    if (video.current) video.current.srcObject = null;
  }, []);
  useEffect(() => release, [release]);

  const start = async () => {
    setState('requesting');
    setProblem(null);
    setStatus({ tone: 'info', text: t('camera.requesting') });
    try {
      const ask = ++asked.current;
      const opened = await navigator.mediaDevices.getUserMedia({ video: VIDEO, audio: false });
      if (ask !== asked.current) {
        opened.getTracks().forEach((track) => track.stop());
        return;
      }
      stream.current = opened;
      if (video.current) {
        video.current.srcObject = stream.current;
        await video.current.play();
      }
      setState('ready');
      setStatus({ tone: 'success', text: t('camera.started') });
    } catch (error) {
      release();
      setState('idle');
      setStatus(null);
      setProblem(cameraProblemOf(error));
    }
  };

  const capture = () => {
    const source = video.current;
    if (!source) return;
    const canvas = document.createElement('canvas');
    canvas.width = source.videoWidth;
    canvas.height = source.videoHeight;
    canvas.getContext('2d')?.drawImage(source, 0, 0, canvas.width, canvas.height);
    setPhoto(canvas.toDataURL('image/png'));
    setState('captured');
    setFlash(true);
    setTimeout(() => setFlash(false), FLASH_MS);
    setStatus({ tone: 'success', text: t('camera.captured') });
  };

  const download = () => {
    if (!photo) return;
    const link = document.createElement('a');
    link.href = photo;
    link.download = photoName(new Date());
    link.click();
    setStatus({ tone: 'success', text: t('camera.downloaded') });
  };

  const stop = () => {
    release();
    setPhoto(null);
    setState('idle');
    setStatus({ tone: 'info', text: t('camera.stopped') });
  };

  const live = state === 'ready' || state === 'captured' || state === 'requesting';
  return (
    <section className="camera">
      <h1>{t('camera.title')}</h1>
      <div className="camera-view card">
        <video ref={video} playsInline muted hidden={state === 'captured' || !live} aria-label={t('camera.live')} />
        {state === 'captured' && photo && <img src={photo} alt={t('camera.photo')} />}
        {state === 'idle' && <p className="muted">{t('camera.idle')}</p>}
        {flash && <div className="camera-flash" data-testid="camera-flash" />}
      </div>
      {problem && <CameraProblemMessage problem={problem} fallback={t('camera.denied')} />}
      {status && (
        <p className={`camera-status ${status.tone}`} role={status.tone === 'error' ? 'alert' : 'status'}>
          {status.text}
        </p>
      )}
      <div className="toolbar">
        {state === 'idle' && (
          <button type="button" className="button primary" onClick={() => void start()}>
            {t('camera.start')}
          </button>
        )}
        {state === 'ready' && (
          <button type="button" className="button primary" onClick={capture}>
            {t('camera.capture')}
          </button>
        )}
        {state === 'captured' && (
          <>
            <button type="button" className="button" onClick={() => setState('ready')}>
              {t('camera.retake')}
            </button>
            <button type="button" className="button primary" onClick={download}>
              {t('camera.download')}
            </button>
          </>
        )}
        {(state === 'ready' || state === 'captured') && (
          <button type="button" className="button" onClick={stop}>
            {t('camera.stop')}
          </button>
        )}
      </div>
    </section>
  );
}
