import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../components/status-views.tsx';
import { useModal } from '../../../components/ui/use-modal.ts';
import { checkInLink, useRoomCode } from '../api/room-code.ts';

/**
 * The room code on the whole screen, for a projector (issue 23): a QR code of the round's check-in
 * link that changes every 15 seconds, how long this one has left, and the roster stays behind it
 * on the round page. Members scan it with their phone's camera, or the portal's own scanner.
 */
export function RoomCodeScreen({
  roundId,
  title,
  attended,
  onClose,
}: {
  roundId: string;
  title: string;
  /** How many are in so far (the round page's live count). */
  attended: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const modal = useModal(onClose);
  const code = useRoomCode(roundId, true);
  const left = useSecondsLeft(code.data);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  const link = code.data && checkInLink(roundId, code.data);
  return (
    <dialog {...modal} aria-labelledby={titleId} className="room-code-screen" data-testid="room-code-screen">
      <h2 id={titleId}>{t('roomCode.title')}</h2>
      <p className="room-code-round">{title}</p>
      {link ? (
        <>
          <QRCodeSVG
            value={link}
            size={320}
            marginSize={4}
            title={t('roomCode.qr')}
            className="room-code-qr"
            data-testid="room-code-qr"
            data-link={link}
          />
          <p className="room-code-hint">{t('roomCode.hint')}</p>
          <p className="room-code-left" aria-live="off">
            {t('roomCode.changesIn', { seconds: left })}
          </p>
          <p className="room-code-count" aria-live="polite" data-testid="room-code-count">
            {t('roomCode.checkedIn', { count: attended })}
          </p>
        </>
      ) : code.isError ? (
        <LoadFailed message={t('roomCode.failed')} onRetry={code.refetch} />
      ) : (
        <p>{t('roomCode.loading')}</p>
      )}
      <button ref={close} type="button" className="button" onClick={onClose}>
        {t('roomCode.close')}
      </button>
    </dialog>
  );
}

/** Whole seconds until the code on screen is replaced, counted down each second. */
function useSecondsLeft(code: { expiresAt: string; serverTime: string; receivedAt: number } | undefined) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (!code) return 0;
  const left = Date.parse(code.expiresAt) - Date.parse(code.serverTime) - (now - code.receivedAt);
  return Math.max(0, Math.ceil(left / 1000));
}
