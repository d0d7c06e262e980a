import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Pager } from '../../../components/ui/pager.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { apiFile } from '../../../lib/api-client.ts';
import {
  type AuditFilters as Filters,
  emptyAuditFilters as empty,
  queryOf,
  useScanAudit,
} from '../api/get-scan-audit.ts';
import { browserTimeZone, dateTime } from '../../../lib/dates.ts';
import { usePage } from '../../../lib/use-page.ts';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';
import { TableWrap } from '../../../components/ui/table-wrap.tsx';

/**
 * The scan audit (admins): every attempt, accepted, refused with its reason, or voided, with who
 * scanned whom, where, on which device and when by each clock; filters, pages and CSV export.
 */
export function AuditPage() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const [filters, setFilters] = useState<Filters>(empty);
  const [page, setPage] = usePage(JSON.stringify(filters));
  const audit = useScanAudit(filters, page);
  const set = (key: keyof Filters) => (event: { target: { value: string } }) =>
    setFilters({ ...filters, [key]: event.target.value });

  async function download() {
    try {
      const blob = await apiFile(
        `/api/admin/audit/scans.csv?${queryOf(filters)}&tz=${encodeURIComponent(browserTimeZone())}`,
      );
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = 'scan_audit.csv';
      link.click();
      URL.revokeObjectURL(link.href);
      toast('success', t('registrations.exported'));
    } catch {
      toast('error', t('registrations.exportFailed'));
    }
  }

  const data = audit.data;
  return (
    <section className="report">
      <h1>{t('screen.audit')}</h1>
      <div className="toolbar audit-filters">
        {(['courseId', 'roundId', 'memberId', 'scannerId'] as const).map((key) => (
          <input
            key={key}
            aria-label={t(`audit.${key}`)}
            placeholder={t(`audit.${key}`)}
            value={filters[key]}
            onChange={set(key)}
          />
        ))}
        <select aria-label={t('audit.outcome')} value={filters.outcome} onChange={set('outcome')}>
          <option value="">{t('audit.allOutcomes')}</option>
          {(['accepted', 'refused', 'voided'] as const).map((outcome) => (
            <option key={outcome} value={outcome}>
              {t(`audit.outcome.${outcome}`)}
            </option>
          ))}
        </select>
        <label>
          {t('audit.from')} <input type="date" value={filters.from} onChange={set('from')} />
        </label>
        <label>
          {t('audit.to')} <input type="date" value={filters.to} onChange={set('to')} />
        </label>
        <button type="button" className="button" onClick={() => setFilters(empty)}>
          {t('report.reset')}
        </button>
        <button type="button" className="button" onClick={() => void download()}>
          {t('registrations.export')}
        </button>
      </div>
      {audit.isPending ? (
        <Loading />
      ) : audit.isError || !data ? (
        <LoadFailed message={t('audit.loadFailed')} onRetry={audit.refetch} retry="settings.retry" />
      ) : (
        <>
          <TableWrap label={t('screen.audit')}>
            <table className="stacked audit-table">
              <thead>
                <tr>
                  <th>{t('audit.serverTime')}</th>
                  <th>{t('audit.outcome')}</th>
                  <th>{t('round.member')}</th>
                  <th>{t('audit.course')}</th>
                  <th>{t('audit.scanner')}</th>
                  <th>{t('audit.device')}</th>
                  <th>{t('audit.deviceTime')}</th>
                </tr>
              </thead>
              <tbody>
                {data.attempts.map((attempt) => (
                  <tr key={attempt.position}>
                    <td data-label={t('audit.serverTime')}>{dateTime(attempt.serverTime, i18n.language)}</td>
                    <td data-label={t('audit.outcome')}>
                      <span className={`badge outcome-${attempt.outcome}`}>
                        {t(`audit.outcome.${attempt.outcome}`)}
                      </span>
                      {attempt.reason && (
                        <div className="muted">
                          {attempt.outcome === 'voided'
                            ? attempt.reason
                            : t(`rules::attendance.${attempt.reason}`, { defaultValue: attempt.reason })}
                        </div>
                      )}
                    </td>
                    <td data-label={t('round.member')}>
                      {attempt.memberId ? (
                        <Link to={`/members/${attempt.memberId}`} title={t('history.link')}>
                          {attempt.memberName ?? attempt.memberId}
                        </Link>
                      ) : (
                        '—'
                      )}
                      {attempt.memberId && (
                        <div>
                          <code>{attempt.memberId}</code>
                        </div>
                      )}
                    </td>
                    <td data-label={t('audit.course')}>
                      {attempt.courseTopic ?? '—'}
                      <div>
                        <code title={attempt.roundId}>{attempt.roundId}</code>
                      </div>
                    </td>
                    <td data-label={t('audit.scanner')}>
                      {attempt.scannerName ?? '—'}
                      <div>
                        <code>{attempt.scannerId}</code>
                      </div>
                    </td>
                    <td data-label={t('audit.device')}>
                      <code>{attempt.deviceId ?? '—'}</code>
                      <div className="muted">
                        {attempt.method ? t(`audit.method.${attempt.method}`, { defaultValue: attempt.method }) : ''}
                      </div>
                    </td>
                    <td data-label={t('audit.deviceTime')}>
                      {dateTime(attempt.deviceTime, i18n.language)}
                      {attempt.lateUploaded && <div className="badge badge-pending">{t('audit.lateUploaded')}</div>}
                      {attempt.offlineDecision && (
                        <div className="muted" data-testid="offline-decision">
                          {t('audit.offlineDecision', {
                            decision:
                              attempt.offlineDecision === 'accepted'
                                ? t('audit.outcome.accepted')
                                : attempt.offlineDecision === 'walkInRequested'
                                  ? t('audit.walkInRequested')
                                  : t(`rules::attendance.${attempt.offlineDecision}`, {
                                      defaultValue: attempt.offlineDecision,
                                    }),
                          })}
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {data.attempts.length === 0 && <p className="empty">{t('audit.empty')}</p>}
          </TableWrap>
          {data.pages > 1 && <Pager page={data.page} pages={data.pages} onPage={setPage} spelled />}
        </>
      )}
    </section>
  );
}
