import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { ScanAnswer } from '@portal/contracts/answers';
import { ApiError } from '../../../lib/api-client.ts';
import { dateTime } from '../../../lib/dates.ts';
import { deviceId, useSelfCheckIn } from '../api/self-check-in.ts';
import { QrScanner } from './qr-scanner.tsx';

type Step =
  | { kind: 'locating' }
  | { kind: 'sending' }
  | { kind: 'done'; answer: ScanAnswer }
  | { kind: 'failed'; message: string };

/** Where the phone is, when the course asks (null when the person or the phone says no). */
const position = () =>
  new Promise<{ latitude: number; longitude: number } | null>((resolve) => {
    if (!('geolocation' in navigator)) return resolve(null);
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => resolve({ latitude: coords.latitude, longitude: coords.longitude }),
      () => resolve(null),
      { enableHighAccuracy: true, timeout: 10_000, maximumAge: 30_000 },
    );
  });

/**
 * A member checking themselves in (issue 23). Opened from the room code (the phone's camera opens
 * its link, or the scanner below reads it): sends the code at once, with where the phone is when
 * the course asks, and shows the answer large. Without a round, or after a refusal, it offers the
 * scanner to read the room code on the screen.
 */
export function SelfCheckInPage({ roundId }: { roundId: string | null }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = params.get('code');
  const needsPlace = params.get('where') === '1';
  const { mutateAsync: send } = useSelfCheckIn(roundId ?? '');
  const [step, setStep] = useState<Step | null>(null);
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (!roundId || !code || sent.current === code) return;
    sent.current = code;
    void (async () => {
      if (needsPlace) setStep({ kind: 'locating' });
      const where = needsPlace ? await position() : null;
      setStep({ kind: 'sending' });
      try {
        setStep({ kind: 'done', answer: await send({ code, deviceId: deviceId(), position: where }) });
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          setStep({ kind: 'done', answer: error.body as unknown as ScanAnswer });
        } else {
          setStep({ kind: 'failed', message: error instanceof ApiError ? error.message : t('selfCheckIn.failed') });
        }
      }
    })();
  }, [roundId, code, needsPlace, send, t]);

  // A room code read by the scanner: its own link, on this portal, opened here.
  const onCode = useCallback(
    (text: string) => {
      try {
        const url = new URL(text, window.location.origin);
        if (url.origin === window.location.origin && url.pathname.startsWith('/check-in/')) {
          void navigate(`${url.pathname}${url.search}`);
        }
      } catch {
        // not a link: not a room code
      }
    },
    [navigate],
  );

  const answer = step?.kind === 'done' ? step.answer : null;
  const accepted = answer?.outcome === 'accepted';
  const scanAgain = !roundId || !code || (answer && !accepted) || step?.kind === 'failed';
  return (
    <section className="self-check-in">
      <h1>{t('selfCheckIn.title')}</h1>
      {step?.kind === 'locating' && <p role="status">{t('selfCheckIn.locating')}</p>}
      {step?.kind === 'sending' && <p role="status">{t('selfCheckIn.sending')}</p>}
      {step?.kind === 'failed' && (
        <p className="scan-outcome refused" role="alert">
          {step.message}
        </p>
      )}
      {answer && (
        <div
          className={`scan-outcome ${accepted ? 'accepted' : 'refused'}`}
          role={accepted ? 'status' : 'alert'}
          data-testid="self-check-in-outcome"
        >
          <strong>{accepted ? `✓ ${answer.message}` : `✕ ${answer.message}`}</strong>
          {accepted && answer.scannedAt && (
            <span>
              {[
                dateTime(answer.scannedAt, i18n.language),
                answer.late && t('round.late'),
                answer.walkIn && t('round.walkIn'),
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          )}
        </div>
      )}
      {scanAgain && (
        <div className="card scan-panel">
          <p>{t(roundId && code ? 'selfCheckIn.scanAgain' : 'selfCheckIn.scanPrompt')}</p>
          <QrScanner onCode={onCode} />
        </div>
      )}
    </section>
  );
}
