import { QRCodeCanvas } from 'qrcode.react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../lib/session.tsx';

/** The QR canvas is 200 wide and saves as user_profile_qrcode.png (spec 000 section 9). */
export const QR_SIZE = 200;
export const QR_FILE = 'user_profile_qrcode.png';

/**
 * The partner layout's profile QR card 'QR Code โปรไฟล์ผู้ใช้': the QR of the user's profile
 * path, saved as an image, sent with the user's mail client, and a log-out action.
 */
export function ProfileQrCard() {
  const { t } = useTranslation();
  const { user, signOut } = useSession();
  const navigate = useNavigate();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const url = user ? `${window.location.origin}/api/members/profile/${user.id}` : null;

  function save() {
    if (!canvas.current) return;
    const link = document.createElement('a');
    link.href = canvas.current.toDataURL('image/png');
    link.download = QR_FILE;
    link.click();
  }

  const mailto =
    url &&
    `mailto:?subject=${encodeURIComponent(t('qr.mailSubject'))}&body=${encodeURIComponent(`${t('qr.mailBody')}\n${url}`)}`;

  return (
    <section className="card qr-card" aria-labelledby="qr-title">
      <h2 id="qr-title">QR Code โปรไฟล์ผู้ใช้</h2>
      <p className="muted qr-note">{t('qr.profileNote')}</p>
      {url && <QRCodeCanvas ref={canvas} value={url} size={QR_SIZE} marginSize={2} title={url} />}
      <p className="muted qr-who">{user?.fullName || user?.username}</p>
      <div className="qr-actions">
        <button type="button" className="button" onClick={save} disabled={!url}>
          {t('qr.save')}
        </button>
        {mailto ? (
          <a className="button" href={mailto}>
            {t('qr.email')}
          </a>
        ) : (
          <button
            type="button"
            className="button"
            onClick={() => setProblem('Cannot send email: QR Code URL not available.')}
          >
            {t('qr.email')}
          </button>
        )}
        <button
          type="button"
          className="button"
          onClick={async () => {
            await signOut();
            navigate('/', { replace: true });
          }}
        >
          {t('header.logout')}
        </button>
      </div>
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
