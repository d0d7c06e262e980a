import { type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMemberHistory } from '../api/get-member-history.ts';
import { dateTime } from '../../../lib/dates.ts';
import { Loading } from '../../../components/status-views.tsx';
import { TableWrap } from '../../../components/ui/table-wrap.tsx';

/**
 * One member as admins audit them (/members/{id}): the dashboard the member sees, then every round
 * they were scanned in, newest first, voided scans kept and marked.
 */
export function MemberHistoryPage({ id, dashboard }: { id: string; dashboard: ReactNode }) {
  const { t, i18n } = useTranslation();
  const history = useMemberHistory(id);
  return (
    <>
      {dashboard}
      <section className="card history-card" aria-labelledby="history-title">
        <h2 id="history-title">{t('history.title')}</h2>
        {history.isPending ? (
          <Loading />
        ) : history.isError ? (
          <div role="alert">
            <p>{t('history.loadFailed')}</p>
            <button type="button" className="button" onClick={() => void history.refetch()}>
              {t('report.retry')}
            </button>
          </div>
        ) : history.data.attendance.length === 0 ? (
          <p className="muted">{t('history.empty')}</p>
        ) : (
          <TableWrap label={t('history.title')}>
            <table className="stacked" data-testid="attendance-history">
              <thead>
                <tr>
                  <th>{t('history.course')}</th>
                  <th>{t('history.roundStart')}</th>
                  <th>{t('history.scannedAt')}</th>
                  <th>{t('history.notes')}</th>
                </tr>
              </thead>
              <tbody>
                {history.data.attendance.map((entry) => (
                  <tr key={entry.roundId} className={entry.voided ? 'voided' : undefined}>
                    <td data-label={t('history.course')}>{entry.courseTopic ?? entry.courseId}</td>
                    <td data-label={t('history.roundStart')}>{dateTime(entry.roundStartTime, i18n.language)}</td>
                    <td data-label={t('history.scannedAt')}>{dateTime(entry.scannedAt, i18n.language)}</td>
                    <td data-label={t('history.notes')}>
                      {[
                        entry.voided && t('audit.outcome.voided'),
                        entry.late && t('round.late'),
                        entry.walkIn && t('round.walkIn'),
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>
    </>
  );
}
