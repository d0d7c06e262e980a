import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { CertificateView } from '@portal/contracts/views/certificate';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { date, dateTime } from '../../../lib/dates.ts';
import { useSession } from '../../../lib/session.tsx';
import {
  useCourseCertificates,
  useIssueCertificates,
  useRevokeCertificate,
  useSetCompletionRule,
} from '../api/certificates.ts';

/**
 * A course's certificates (issue 23), for its creator and admins: the completion rule, issuing
 * now that the last round has ended (the portal also does it on its own), and every certificate
 * issued, which an admin may revoke with a reason.
 */
export function CourseCertificates({ courseId }: { courseId: string }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const id = useId();
  const { user } = useSession();
  const course = useCourseCertificates(courseId);
  const setRule = useSetCompletionRule(courseId);
  const issue = useIssueCertificates(courseId);
  const [percent, setPercent] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<CertificateView | null>(null);

  if (course.isPending) return <Loading />;
  if (course.isError) return <LoadFailed message={t('certificates.loadFailed')} onRetry={course.refetch} />;
  const data = course.data;
  const shown = percent ?? String(data.percent);
  const over = data.ended;

  const saveRule = async (event: React.FormEvent) => {
    event.preventDefault();
    setProblem(null);
    try {
      toast('success', (await setRule.mutateAsync(shown.trim() === '' ? Number.NaN : Number(shown))).message);
      setPercent(null);
    } catch (error) {
      const message =
        error instanceof ApiError ? (error.body.errors?.percent ?? error.message) : t('certificates.failed');
      setProblem(message);
    }
  };
  const issueNow = async () => {
    try {
      const done = await issue.mutateAsync();
      toast('success', t('certificates.issuedNow', { count: done.issued }));
    } catch (error) {
      toast('error', error instanceof ApiError ? error.message : t('certificates.failed'));
    }
  };

  return (
    <section className="card form-card course-certificates" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('certificates.title')}</h2>
      <p className="muted">{t('certificates.explain')}</p>
      <form className="certificate-rule" onSubmit={(event) => void saveRule(event)} noValidate>
        <div className={`field${problem ? ' invalid' : ''}`}>
          <label htmlFor={`${id}-percent`}>{t('certificates.rule')}</label>
          <input
            id={`${id}-percent`}
            inputMode="numeric"
            value={shown}
            onChange={(event) => setPercent(event.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-percent-error` : undefined}
          />
          {problem && (
            <span id={`${id}-percent-error`} className="field-error" role="alert">
              {problem}
            </span>
          )}
        </div>
        <button type="submit" className="button" disabled={setRule.isPending}>
          {t('certificates.saveRule')}
        </button>
      </form>
      <p>
        {data.lastRoundEndsAt === null
          ? t('certificates.noRounds')
          : over
            ? t('certificates.ended', { date: dateTime(data.lastRoundEndsAt, i18n.language) })
            : t('certificates.endsAt', { date: dateTime(data.lastRoundEndsAt, i18n.language) })}
        {data.checkedAt && ` ${t('certificates.checkedAt', { date: dateTime(data.checkedAt, i18n.language) })}`}
      </p>
      <button
        type="button"
        className="button primary"
        disabled={!over || issue.isPending}
        onClick={() => void issueNow()}
      >
        {t('certificates.issue')}
      </button>
      {data.certificates.length === 0 ? (
        <p className="muted">{t('certificates.noneIssued')}</p>
      ) : (
        <div className="table-wrap">
          <table className="table certificate-table">
            <caption className="visually-hidden">{t('certificates.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('certificates.member')}</th>
                <th scope="col">{t('certificates.rounds')}</th>
                <th scope="col">{t('certificates.hours')}</th>
                <th scope="col">{t('certificates.issuedOn')}</th>
                <th scope="col">{t('certificates.status')}</th>
              </tr>
            </thead>
            <tbody>
              {data.certificates.map((certificate) => (
                <tr key={certificate.certificateId}>
                  <td>{certificate.memberName ?? t('certificates.erasedPerson')}</td>
                  <td>
                    {certificate.attendedRounds} / {certificate.heldRounds}
                  </td>
                  <td>{certificate.hours}</td>
                  <td>{date(certificate.issuedAt, i18n.language)}</td>
                  <td>
                    {certificate.revokedAt ? (
                      <span className="badge badge-rejected" title={certificate.revokedReason ?? undefined}>
                        {t('certificates.revoked')}
                      </span>
                    ) : (
                      <span className="certificate-actions">
                        <Link to={`/verify/${certificate.certificateId}`}>{t('certificates.valid')}</Link>
                        {user?.role === 'admin' && (
                          <button
                            type="button"
                            className="button small danger"
                            onClick={() => setRevoking(certificate)}
                            aria-label={`${t('certificates.revoke')}: ${certificate.memberName ?? ''}`}
                          >
                            {t('certificates.revoke')}
                          </button>
                        )}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoking && <RevokeDialog courseId={courseId} certificate={revoking} onDone={() => setRevoking(null)} />}
    </section>
  );
}

function RevokeDialog(props: { courseId: string; certificate: CertificateView; onDone: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const revoke = useRevokeCertificate(props.courseId);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const confirm = async () => {
    if (!reason.trim()) return setProblem(t('rules::certificate.reasonRequired'));
    try {
      const done = await revoke.mutateAsync({ memberId: props.certificate.memberId, reason });
      toast('success', done.message);
      props.onDone();
    } catch (error) {
      setProblem(error instanceof ApiError ? (error.body.errors?.reason ?? error.message) : t('certificates.failed'));
    }
  };
  return (
    <ConfirmDialog
      title={t('certificates.revokeTitle', { name: props.certificate.memberName ?? '' })}
      confirmLabel={t('certificates.revoke')}
      destructive
      onCancel={props.onDone}
      onConfirm={() => void confirm()}
    >
      <label>
        {t('certificates.revokeReason')}
        <textarea
          rows={3}
          value={reason}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'revoke-reason-error' : undefined}
          onChange={(event) => setReason(event.target.value)}
        />
      </label>
      {problem && (
        <small id="revoke-reason-error" className="field-error" role="alert">
          {problem}
        </small>
      )}
    </ConfirmDialog>
  );
}
