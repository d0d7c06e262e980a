import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { date, dateTime } from '../../../lib/dates.ts';
import { useSession } from '../../../lib/session.tsx';
import { useLiveCourse } from '../../../lib/live.ts';
import { courseKey, useCourse } from '../api/get-course.ts';
import { CourseImage } from '../../../components/course-image.tsx';
import { Loading } from '../../../components/status-views.tsx';
import { SelfCheckInSettings } from './self-check-in-settings.tsx';

/**
 * The server's clock, as seen from this page: the answer carries it, and the page keeps ticking
 * from there, so a round turns active or inactive while the page stays open, whatever the
 * device's own clock says.
 */
function useServerNow(serverTime: string | undefined, receivedAt: number, tickMs = 5_000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  if (!serverTime) return now;
  return Math.max(now, receivedAt) + (Date.parse(serverTime) - receivedAt);
}

/**
 * Course details (/courses/{id}, spec 001 section 2.3): the course, its three tiles and its rounds;
 * `below` adds what other features show under the rounds (composed in app/routes).
 */
export function CourseDetailsPage({
  id,
  below,
}: {
  id: string | undefined;
  below?: (course: { id: string; canManage: boolean }) => ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const course = useCourse(id ?? '');
  useLiveCourse(id, [courseKey(id ?? '')]);
  const now = useServerNow(course.data?.serverTime, course.dataUpdatedAt);
  const [inactive, setInactive] = useState(false);
  // Arriving from the create page (spec 001: "Course created" / "Your course has been created successfully.").
  const location = useLocation();
  const [created, setCreated] = useState(Boolean((location.state as { created?: boolean } | null)?.created));
  const back = (
    <button type="button" className="button" onClick={() => navigate('/courses')}>
      {t('details.back')}
    </button>
  );
  if (!id) {
    return (
      <section className="card" role="alert">
        <p>{t('details.idMissing')}</p>
        {back}
      </section>
    );
  }
  if (course.isPending) return <Loading />;
  const data = course.data?.course;
  if (course.isError || !data) {
    return (
      <section className="card" role="alert">
        <h1>{t('details.loadFailed')}</h1>
        <p>{course.error instanceof ApiError ? course.error.body.message : t('details.unexpected')}</p>
        <button type="button" className="button" onClick={() => void course.refetch()}>
          {t('settings.retry')}
        </button>{' '}
        <button type="button" className="button" onClick={() => navigate('/courses')}>
          {t('details.goBack')}
        </button>
      </section>
    );
  }
  const tiles = [
    [t('courses.participants'), data.participate],
    [t('courses.attended'), data.totalAttend],
    [t('courses.absent'), data.totalAbsent],
  ] as const;
  const canManage = user?.role === 'admin' || user?.id === data.creator;
  return (
    <section className="course-details">
      <div className="page-heading">
        {back}
        {canManage && (
          <Link className="button" to={`/courses/edit/${data._id}`}>
            {t('courses.edit')}
          </Link>
        )}
      </div>
      <article className="card course-summary">
        <CourseImage src={data.courseImage} className="course-image large" />
        <div>
          <h1>{data.courseTopic}</h1>
          <span className={`badge badge-${data.status}`}>{t(`courses.${data.status}`)}</span>
          <p className="course-description">{data.courseDescription || t('courses.noDescription')}</p>
          <p className="muted">
            {t('courses.created')}: {date(data.createdAt, i18n.language)} · {t('courses.enrolled')}:{' '}
            {data.maxPeople > 0 ? `${data.enrolled} / ${data.maxPeople}` : data.enrolled}
          </p>
        </div>
      </article>
      <div className="tiles">
        {tiles.map(([label, value]) => (
          <div key={label} className="card tile">
            <span>{label}</span>
            <strong>{value}</strong>
          </div>
        ))}
      </div>
      <h2>{t('rounds.title')}</h2>
      {data.rounds.length === 0 ? (
        <p className="card empty">{t('rounds.none')}</p>
      ) : (
        <ol className="round-cards">
          {data.rounds.map((round) => {
            const active = Date.parse(round.roundStartTime) <= now && now <= Date.parse(round.roundEndTime);
            // An ended round opens read-only (what was recorded); one still to come only warns.
            const opens = active || Date.parse(round.roundEndTime) < now;
            return (
              <li key={round._id}>
                <button
                  type="button"
                  className={`card round-card ${active ? 'active' : 'inactive'}`}
                  onClick={() => (opens ? navigate(`/courses/${data._id}/rounds/${round._id}`) : setInactive(true))}
                >
                  <strong>{t('rounds.number', { n: round.roundNumber })}</strong>
                  <span className="muted">
                    {t('details.roundId')}: <code>{round._id}</code>
                  </span>
                  <span>
                    {t('rounds.start')}: {dateTime(round.roundStartTime, i18n.language)}
                  </span>
                  <span>
                    {t('rounds.end')}: {dateTime(round.roundEndTime, i18n.language)}
                  </span>
                  <span className={`badge ${active ? 'badge-approved' : 'badge-pending'}`}>
                    {t(active ? 'details.active' : 'details.inactive')}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {canManage && <SelfCheckInSettings courseId={data._id} rules={data.selfCheckIn} />}
      {below?.({ id: data._id, canManage })}
      {created && (
        <Dialog
          tone="success"
          title={t('courseForm.createdTitle')}
          onClose={() => {
            setCreated(false);
            navigate('.', { replace: true, state: null }); // not again on reload or back
          }}
        >
          {t('courseForm.createdBody')}
        </Dialog>
      )}
      {inactive && (
        <Dialog tone="warning" title={t('details.notActiveTitle')} onClose={() => setInactive(false)}>
          {t('details.notActiveBody')}
        </Dialog>
      )}
    </section>
  );
}
