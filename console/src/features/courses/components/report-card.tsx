import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ManageLinks } from './manage-links.tsx';
import type { CourseView } from '@portal/contracts/views/course';
import { dateTime } from '../../../lib/dates.ts';
import { CourseCardShell } from '../../../components/course-card-shell.tsx';

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
    <CourseCardShell course={course} facts={facts}>
      <div className="course-actions">
        <Link className="button small" to={`/courses/${course._id}`}>
          {t('report.view')}
        </Link>
        {props.canManage && (
          <>
            <ManageLinks courseId={course._id} onDelete={props.onDelete} />
            <button type="button" className="button small" onClick={props.onToggleStatus}>
              {t(course.status === 'public' ? 'report.makePrivate' : 'report.makePublic')}
            </button>
          </>
        )}
        <button type="button" className="button small" onClick={props.onParticipants}>
          {t('report.participants')}
        </button>
      </div>
    </CourseCardShell>
  );
}
