import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { date } from '../../../lib/dates.ts';
import { useVerification } from '../api/certificates.ts';

/**
 * The page a certificate's QR code opens (issue 23), for anyone, signed in or not: whether the
 * certificate is valid, revoked (and why), or was issued to someone whose data has since been
 * erased, who is then not named.
 */
export function VerifyPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const check = useVerification(id);

  let body: React.ReactNode;
  if (check.isPending) body = <Loading />;
  else if (check.isError) {
    const missing = check.error instanceof ApiError && check.error.status === 404;
    body = missing ? (
      <p className="verify-status verify-unknown" role="status" data-testid="verify-status">
        {t('verify.unknown')}
      </p>
    ) : (
      <LoadFailed message={t('verify.failed')} onRetry={check.refetch} />
    );
  } else {
    const c = check.data;
    body = (
      <>
        <p className={`verify-status verify-${c.status}`} role="status" data-testid="verify-status">
          {t(`verify.${c.status}`)}
        </p>
        {c.status === 'revoked' && (
          <p>
            {t('verify.revokedOn', { date: date(c.revokedAt, i18n.language) })} {c.revokedReason}
          </p>
        )}
        <dl className="details">
          <dt>{t('verify.holder')}</dt>
          <dd>{c.memberName ?? t('verify.erasedHolder')}</dd>
          <dt>{t('verify.course')}</dt>
          <dd>{c.courseTopic}</dd>
          <dt>{t('verify.issuer')}</dt>
          <dd>{c.issuer || '—'}</dd>
          <dt>{t('verify.attendance')}</dt>
          <dd>{t('verify.rounds', { attended: c.attendedRounds, count: c.heldRounds, hours: c.hours })}</dd>
          <dt>{t('verify.issuedOn')}</dt>
          <dd>{date(c.issuedAt, i18n.language)}</dd>
          <dt>{t('verify.number')}</dt>
          <dd>
            <code>{c.certificateId}</code>
          </dd>
        </dl>
      </>
    );
  }
  return (
    <section className="card form-card verify-page" aria-labelledby="verify-title">
      <h1 id="verify-title">{t('verify.title')}</h1>
      {body}
    </section>
  );
}
