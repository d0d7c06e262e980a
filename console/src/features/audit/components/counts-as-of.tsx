import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useCountsAsOf } from '../api/get-counts-as-of.ts';
import { dateTime, fromLocalInput, toLocalInput } from '../../../lib/dates.ts';
import { Loading } from '../../../components/status-views.tsx';
import { TableWrap } from '../../../components/ui/table-wrap.tsx';

/**
 * "As of" for admins: a course's counts as they stood at a chosen past moment, worked out by the
 * server from the event log itself (GET /api/admin/courses/{id}/counts?asOf=), so a figure that
 * was reported then can be checked now.
 */
export function CountsAsOf({ courseId }: { courseId: string }) {
  const { t, i18n } = useTranslation();
  const [typed, setTyped] = useState(() => toLocalInput(new Date().toISOString(), true));
  const [asOf, setAsOf] = useState<string | null>(null);
  const counts = useCountsAsOf(courseId, asOf);
  const notYet = counts.error instanceof ApiError && counts.error.status === 404;
  return (
    <section className="card as-of" aria-labelledby="as-of-title">
      <h2 id="as-of-title">{t('asOf.title')}</h2>
      <p className="muted">{t('asOf.hint')}</p>
      <form
        className="toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          if (typed) setAsOf(fromLocalInput(typed));
        }}
      >
        <label>
          <span>{t('asOf.at')}</span>
          <input type="datetime-local" step={1} value={typed} onChange={(event) => setTyped(event.target.value)} />
        </label>
        <button type="submit" className="button primary">
          {t('asOf.show')}
        </button>
      </form>
      {asOf === null ? null : counts.isPending ? (
        <Loading />
      ) : notYet ? (
        <p>{t('asOf.notYet')}</p>
      ) : counts.isError ? (
        <p role="alert">{t('asOf.failed')}</p>
      ) : (
        <div data-testid="counts-as-of">
          <p>
            <strong>{dateTime(counts.data.asOf, i18n.language)}</strong>
          </p>
          <dl className="stats">
            {(
              [
                ['courses.enrolled', counts.data.counts.enrolled],
                ['courses.participants', counts.data.counts.participate],
                ['courses.attended', counts.data.counts.totalAttend],
                ['courses.absent', counts.data.counts.totalAbsent],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <dt>{t(label)}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          {counts.data.counts.rounds.length > 0 && (
            <TableWrap label={t('asOf.title')}>
              <table>
                <thead>
                  <tr>
                    <th>{t('rounds.start')}</th>
                    <th>{t('courses.attended')}</th>
                    <th>{t('courses.absent')}</th>
                  </tr>
                </thead>
                <tbody>
                  {counts.data.counts.rounds.map((round) => (
                    <tr key={round._id}>
                      <td>{dateTime(round.roundStartTime, i18n.language)}</td>
                      <td>{round.attended}</td>
                      <td>{round.absent}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
        </div>
      )}
    </section>
  );
}
