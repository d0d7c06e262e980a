import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { CourseView } from '@portal/query-api/contracts/course';
import { dateTime } from '../../../lib/dates.ts';
import { CourseImage } from '../../../components/course-image.tsx';

/** One course of the attendance overview (spec 001 section 2.5). */
export function ReportCard(props: {
  course: CourseView;
  canManage: boolean;
  onToggleStatus: () => void;
  onDelete: () => void;
  onParticipants: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { course } = props;
  const facts = [
    [t('courses.participants'), course.participate],
    [t('courses.attended'), course.totalAttend],
    [t('courses.absent'), course.totalAbsent],
    [t('courses.created'), dateTime(course.createdAt, i18n.language)],
    [t('report.status'), t(`courses.${course.status}`)],
  ] as const;
  return (
    <article className="card course-card" aria-labelledby={`report-${course._id}`}>
      <CourseImage src={course.courseImage} />
      <div className="course-card-body">
        <h2 id={`report-${course._id}`}>{course.courseTopic}</h2>
        <p className="course-description">{course.courseDescription || t('courses.noDescription')}</p>
        <dl className="course-counts">
          {facts.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <div className="course-actions">
          <Link className="button small" to={`/courses/${course._id}`}>
            {t('report.view')}
          </Link>
          {props.canManage && (
            <>
              <Link className="button small" to={`/courses/edit/${course._id}`}>
                {t('courses.edit')}
              </Link>
              <button type="button" className="button small danger" onClick={props.onDelete}>
                {t('courses.delete')}
              </button>
              <button type="button" className="button small" onClick={props.onToggleStatus}>
                {t(course.status === 'public' ? 'report.makePrivate' : 'report.makePublic')}
              </button>
            </>
          )}
          <button type="button" className="button small" onClick={props.onParticipants}>
            {t('report.participants')}
          </button>
        </div>
      </div>
    </article>
  );
}
