import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { dateTime } from '../../../lib/dates.ts';
import { useOverview } from '../api/get-overview.ts';
import { RatesChart, ScansChart } from './overview-charts.tsx';
import { ProjectorLag } from './projector-lag.tsx';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';

const periods = [7, 30, 90] as const;
const statuses = ['approved', 'pending', 'rejected'] as const;

/**
 * The admins' home (/admin): the organisation at a glance over a chosen period: members and
 * partners by status, courses, scan attempts per day, attendance rate per course and the busiest
 * rounds, all from GET /api/admin/overview; and how far the reports are behind the log.
 */
export function AdminOverview() {
  const { t, i18n } = useTranslation();
  const [days, setDays] = useState<number>(30);
  const overview = useOverview(days);
  const data = overview.data;
  const count = (role: string, status: string) =>
    data?.members.find((row) => row.role === role && row.status === status)?.count ?? 0;
  return (
    <section className="overview">
      <div className="toolbar">
        <h1>{t('overview.title')}</h1>
        <label>
          {t('overview.period')}{' '}
          <select value={days} onChange={(event) => setDays(Number(event.target.value))}>
            {periods.map((period) => (
              <option key={period} value={period}>
                {t('overview.lastDays', { count: period })}
              </option>
            ))}
          </select>
        </label>
      </div>
      {overview.isPending ? (
        <Loading />
      ) : overview.isError || !data ? (
        <LoadFailed message={t('overview.loadFailed')} onRetry={overview.refetch} />
      ) : (
        <>
          <div className="overview-figures" aria-busy={overview.isFetching}>
            <section className="card" aria-labelledby="members-title">
              <h2 id="members-title">{t('overview.members')}</h2>
              <table data-testid="members-by-status">
                <thead>
                  <tr>
                    <th />
                    {statuses.map((status) => (
                      <th key={status}>{t(`status.${status}`)}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {(['member', 'partner'] as const).map((role) => (
                    <tr key={role}>
                      <th scope="row">{t(`overview.role.${role}`)}</th>
                      {statuses.map((status) => (
                        <td key={status}>{count(role, status)}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
              <Link to="/registrations">{t('screen.registrations')}</Link>
            </section>
            <section className="card" aria-labelledby="courses-title">
              <h2 id="courses-title">{t('overview.courses')}</h2>
              <ul className="overview-list" data-testid="course-figures">
                <li>
                  <span>{t('courses.public')}</span> <strong>{data.courses.public}</strong>
                </li>
                <li>
                  <span>{t('courses.private')}</span> <strong>{data.courses.private}</strong>
                </li>
                <li>
                  <span>{t('overview.roundsHeld')}</span> <strong>{data.courses.rounds}</strong>
                </li>
              </ul>
              <Link to="/report">{t('screen.report')}</Link>
            </section>
          </div>
          <ScansChart days={data.scansPerDay} />
          <div className="dashboard-charts">
            <RatesChart courses={data.courseRates} />
            <section className="card" aria-labelledby="busiest-title">
              <h2 id="busiest-title">{t('overview.busiest')}</h2>
              {data.busiestRounds.length === 0 ? (
                <p className="muted">{t('overview.noBusiest')}</p>
              ) : (
                <ol className="overview-list" data-testid="busiest-rounds">
                  {data.busiestRounds.map((round) => (
                    <li key={round._id}>
                      <Link to={`/courses/${round.courseId}/rounds/${round._id}`}>
                        {round.courseTopic}
                        <div className="muted">{dateTime(round.roundStartTime, i18n.language)}</div>
                      </Link>
                      <strong>{t('overview.attendedCount', { count: round.attended })}</strong>
                    </li>
                  ))}
                </ol>
              )}
              <Link to="/audit">{t('screen.audit')}</Link>
            </section>
          </div>
          <ProjectorLag />
        </>
      )}
    </section>
  );
}
