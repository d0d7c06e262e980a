import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSession } from '../../../lib/session.tsx';
import { useMyPass } from '../api/get-my-pass.ts';
import { Loading } from '../../../components/status-views.tsx';

/**
 * The member's attendance pass: a QR code that changes every 30 seconds, so a screenshot sent to
 * a friend stops working. The id and username below can be typed by the scanner instead.
 */
export function MemberPass() {
  const { t } = useTranslation();
  const { user } = useSession();
  const pass = useMyPass();
  return (
    <section className="card member-pass" id="member-pass" aria-labelledby="member-pass-title">
      <h2 id="member-pass-title">{t('pass.title')}</h2>
      {pass.data ? (
        <QRCodeSVG value={pass.data.code} size={220} marginSize={2} title={t('pass.title')} data-testid="pass-qr" />
      ) : pass.isError ? (
        <p role="alert">{t('pass.failed')}</p>
      ) : (
        <Loading />
      )}
      <p className="hint">{t('pass.hint')}</p>
      <p className="pass-id">
        {t('pass.typeInstead')} <code>{user?.username}</code>
      </p>
      <Link className="button" to="/check-in">
        {t('selfCheckIn.open')}
      </Link>
    </section>
  );
}
