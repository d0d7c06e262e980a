import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { date } from '../../../lib/dates.ts';
import { downloadCertificate, useMyCertificates } from '../api/certificates.ts';

/**
 * A member's certificates of completion on their dashboard (issue 23): each course completed,
 * its PDF to download and its public page, which is what the QR code on the paper opens.
 */
export function MyCertificates() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const mine = useMyCertificates();
  const [busy, setBusy] = useState<string | null>(null);

  const download = async (id: string) => {
    setBusy(id);
    try {
      await downloadCertificate(id);
    } catch (error) {
      toast('error', error instanceof ApiError ? error.message : t('certificates.downloadFailed'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card my-certificates" aria-labelledby="my-certificates-title" data-testid="my-certificates">
      <h2 id="my-certificates-title">{t('certificates.mine')}</h2>
      {mine.isPending ? (
        <Loading />
      ) : mine.isError ? (
        <LoadFailed message={t('certificates.loadFailed')} onRetry={mine.refetch} />
      ) : mine.data.certificates.length === 0 ? (
        <p className="muted">{t('certificates.none')}</p>
      ) : (
        <ul className="certificate-list">
          {mine.data.certificates.map((certificate) => (
            <li key={certificate.certificateId}>
              <div>
                <strong>{certificate.courseTopic}</strong>
                <span className="muted">
                  {t('certificates.earned', {
                    attended: certificate.attendedRounds,
                    count: certificate.heldRounds,
                    hours: certificate.hours,
                    date: date(certificate.issuedAt, i18n.language),
                  })}
                </span>
                {certificate.revokedAt && (
                  <span className="badge badge-rejected">
                    {t('certificates.revokedBecause', { reason: certificate.revokedReason })}
                  </span>
                )}
              </div>
              {!certificate.revokedAt && (
                <div className="actions">
                  <button
                    type="button"
                    className="button primary"
                    disabled={busy === certificate.certificateId}
                    onClick={() => void download(certificate.certificateId)}
                  >
                    {t('certificates.download')}
                  </button>
                  <Link className="button" to={`/verify/${certificate.certificateId}`}>
                    {t('certificates.publicPage')}
                  </Link>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
