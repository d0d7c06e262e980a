import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ManageLinks } from './manage-links.tsx';
import type { CourseView } from '@portal/contracts/views/course';
import { date } from '../../../lib/dates.ts';
import { CourseCardShell } from '../../../components/course-card-shell.tsx';

/**
 * One course of the list (spec 001 section 2.1): image, topic, description, counts, created date,
 * the status toggle, View Details for all, Edit and Delete for its creator and for admins.
 */
export function CourseCard(props: {
  course: CourseView;
  canManage: boolean;
  statusBusy: boolean;
  onToggleStatus: () => void;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { course } = props;
  const counts = [
    [t('courses.participants'), course.participate],
    [t('courses.enrolled'), course.maxPeople > 0 ? `${course.enrolled} / ${course.maxPeople}` : course.enrolled],
    [t('courses.rounds'), course.rounds.length],
    [t('courses.attended'), course.totalAttend],
    [t('courses.absent'), course.totalAbsent],
  ] as const;
  return (
    <CourseCardShell course={course} facts={counts}>
      <p className="muted">
        {t('courses.created')}: {date(course.createdAt, i18n.language)}
      </p>
      <div className="course-actions">
        {/* The creator and admins change the status (the server's rule, as on /report); others see it. */}
        {props.canManage ? (
          <button
            type="button"
            className={`badge badge-${course.status}`}
            disabled={props.statusBusy}
            onClick={props.onToggleStatus}
            title={t(course.status === 'public' ? 'courses.makePrivate' : 'courses.makePublic')}
            aria-label={`${t(`courses.${course.status}`)}: ${t(course.status === 'public' ? 'courses.makePrivate' : 'courses.makePublic')}`}
          >
            {t(`courses.${course.status}`)}
          </button>
        ) : (
          <span className={`badge badge-${course.status}`}>{t(`courses.${course.status}`)}</span>
        )}
        <Link className="button small" to={`/courses/${course._id}`}>
          {t('courses.view')}
        </Link>
        {props.canManage && <ManageLinks courseId={course._id} onDelete={props.onDelete} />}
      </div>
    </CourseCardShell>
  );
}
