import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.tsx';
import { usePartnerHome } from '../api/get-partner-home.ts';
import { PartnerCourses } from './partner-courses.tsx';
import { PartnerRounds } from '../../../components/partner-rounds.tsx';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';

/**
 * Where a partner lands after sign-in (/partner): four figures over their own courses, the rounds
 * open now or within the week with a way straight to the scanner, and their courses. All from
 * GET /api/partner/home; a partner with no course yet is offered to create one.
 */
export function PartnerHomePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const home = usePartnerHome();
  const data = home.data;
  return (
    <section className="dashboard partner-home">
      <header className="card dashboard-header">
        <div>
          <h1>{t('partnerHome.welcome', { name: user?.fullName || user?.username || '' })}</h1>
          <p className="muted">{t('partnerHome.intro')}</p>
        </div>
        {data && (
          <dl className="stats" data-testid="partner-figures">
            <div>
              <dt>{t('partnerHome.courseCount')}</dt>
              <dd>{data.summary.courses}</dd>
            </div>
            <div>
              <dt>{t('partnerHome.members')}</dt>
              <dd>{data.summary.members}</dd>
            </div>
            <div>
              <dt>{t('partnerHome.upcoming')}</dt>
              <dd>{data.summary.upcomingRounds}</dd>
            </div>
            <div>
              <dt>{t('dashboard.attendanceRate')}</dt>
              <dd>{data.summary.attendanceRate === null ? '—' : `${data.summary.attendanceRate}%`}</dd>
            </div>
          </dl>
        )}
      </header>
      {home.isPending ? (
        <Loading />
      ) : home.isError || !data ? (
        <LoadFailed
          message={(home.error instanceof ApiError && home.error.body.message) || t('partnerHome.loadFailed')}
          onRetry={home.refetch}
        />
      ) : (
        <>
          <PartnerRounds rounds={data.rounds} />
          <PartnerCourses courses={data.courses} />
        </>
      )}
      <nav className="dashboard-links">
        <Link className="card" to="/createcourse">
          {t('screen.createcourse')}
        </Link>
        <Link className="card" to="/notification">
          {t('screen.notification')}
        </Link>
        <Link className="card" to="/setting">
          {t('dashboard.settings')}
        </Link>
      </nav>
    </section>
  );
}
