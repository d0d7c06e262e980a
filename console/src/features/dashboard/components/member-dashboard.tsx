import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useProfile } from '../../../lib/profile.ts';
import { useMemberReport } from '../api/get-member-report.ts';
import { StatusChart, TrendChart } from './dashboard-charts.tsx';
import { MyCourseCard } from './my-course-card.tsx';
import { UpcomingRounds } from './upcoming-rounds.tsx';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';

/**
 * A member's dashboard (spec 001 section 2.6), on the member's own home, or opened by an admin
 * from the member's attendance history: who they are, four figures, their courses by status,
 * their attendance over time, each course's progress and the next three rounds. Everything comes
 * from GET /api/admin/courses/{userId}/report; nothing is sampled or made up.
 */
export function MemberDashboard({
  memberId,
  own,
  fallbackName,
  more,
}: {
  memberId: string;
  own: boolean;
  fallbackName: string;
  /** What the page adds below the rounds (the member's own certificates). */
  more?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const profile = useProfile(memberId);
  const report = useMemberReport(memberId);
  const member = profile.data?.member;
  const name = member?.fullName || member?.username || fallbackName;

  const header = (
    <header className="card dashboard-header">
      <Avatar src={member?.profile_img} name={name} size="large" />
      <div>
        <h1>{name}</h1>
        <p className="muted">{t('dashboard.id', { id: memberId })}</p>
        {profile.isError && (
          <p className="error" role="alert">
            {profile.error instanceof ApiError ? profile.error.message : t('dashboard.profileFailed')}
          </p>
        )}
      </div>
      {own && member && (
        <section className="my-profile" aria-labelledby="my-profile-title" data-testid="my-profile">
          <h2 id="my-profile-title">{t('dashboard.myProfile')}</h2>
          <dl className="details">
            <dt>{t('login.username')}</dt>
            <dd>{member.username}</dd>
            <dt>{t('form.email')}</dt>
            <dd>{member.personalEmail || '—'}</dd>
            <dt>{t('form.phone')}</dt>
            <dd>{member.personalPhone || '—'}</dd>
          </dl>
          <Link to="/setting">{t('header.settings')}</Link>
        </section>
      )}
      {report.data && (
        <dl className="stats">
          <div>
            <dt>{t('dashboard.enrolled')}</dt>
            <dd>{report.data.summary.enrolledCourses}</dd>
          </div>
          <div>
            <dt>{t('dashboard.upcomingRounds')}</dt>
            <dd>{report.data.summary.upcomingRounds}</dd>
          </div>
          <div>
            <dt>{t('dashboard.attendanceRate')}</dt>
            <dd>{report.data.summary.attendanceRate === null ? '—' : `${report.data.summary.attendanceRate}%`}</dd>
          </div>
          <div>
            <dt>{t('dashboard.completed')}</dt>
            <dd>
              {report.data.summary.completedCourses} / {report.data.summary.totalCourses}
            </dd>
          </div>
        </dl>
      )}
    </header>
  );

  if (report.isPending) {
    return (
      <section className="dashboard">
        {header}
        <Loading />
      </section>
    );
  }
  if (report.isError) {
    const error = report.error;
    return (
      <section className="dashboard">
        {header}
        <LoadFailed
          message={
            error instanceof ApiError ? error.body.message || t('dashboard.coursesFailed') : t('dashboard.networkError')
          }
          onRetry={report.refetch}
        />
      </section>
    );
  }
  const { course: courses, upcoming } = report.data;
  return (
    <section className="dashboard">
      {header}
      {courses.length === 0 ? (
        <div className="card empty" data-testid="dashboard-empty">
          <p>{t('dashboard.empty')}</p>
          {own && (
            <a className="button primary" href="#catalogue">
              {t('dashboard.browse')}
            </a>
          )}
        </div>
      ) : (
        <>
          <div className="dashboard-charts">
            <StatusChart courses={courses} own={own} />
            <TrendChart courses={courses} />
          </div>
          <h2>{t(own ? 'dashboard.myCourses' : 'dashboard.courses')}</h2>
          <div className="course-grid">
            {courses.map((course) => (
              <MyCourseCard key={course._id} course={course} />
            ))}
          </div>
        </>
      )}
      <UpcomingRounds rounds={upcoming} own={own} />
      {more}
      {own && (
        <nav className="dashboard-links">
          <Link className="card" to="/setting">
            {t('dashboard.settings')}
          </Link>
          <Link className="card" to="/contact">
            {t('dashboard.help')}
          </Link>
        </nav>
      )}
    </section>
  );
}
