import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { date, dateTime } from '../../../lib/dates.ts';
import { CourseImage } from '../../../components/course-image.tsx';
import type { MemberCourse } from '../api/get-member-report.ts';

/**
 * One of the member's courses: progress (rounds attended over the course's rounds), the status
 * the spec derives from it, the next round, and, behind the status's action, every round held
 * with whether they came.
 */
export function MyCourseCard({ course }: { course: MemberCourse }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const attended = course.userAttendance.filter((entry) => entry.status === 'Attended').length;
  return (
    <article className="card my-course" data-status={course.status}>
      <CourseImage src={course.courseImage} />
      <div className="my-course-body">
        <h3>{course.courseTopic}</h3>
        <span className={`badge status-${course.status.replace(' ', '-').toLowerCase()}`}>
          {t(`dashboard.status.${course.status}`)}
        </span>
        {course.instructorName && <p className="muted">{t('dashboard.instructor', { name: course.instructorName })}</p>}
        <div
          className="progress"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={course.progress}
          aria-label={t('dashboard.progressLabel', { topic: course.courseTopic })}
        >
          <span style={{ width: `${course.progress}%` }} />
        </div>
        <p>
          {course.progress}% · {t('dashboard.progress', { done: course.completedLessons, total: course.totalLessons })}
        </p>
        {course.heldLessons > 0 && (
          <p className="muted">
            {t('dashboard.courseRate', {
              rate: Math.round((100 * attended) / course.heldLessons),
              held: course.heldLessons,
            })}
          </p>
        )}
        <p className="muted">
          {course.upcomingRound
            ? t('dashboard.nextRound', {
                number: course.upcomingRound.roundNumber,
                date: dateTime(course.upcomingRound.date, i18n.language),
              })
            : t('market.noRounds')}
        </p>
        <button type="button" className="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {t(`dashboard.action.${course.status}`)}
        </button>
        {open &&
          (course.userAttendance.length === 0 ? (
            <p className="muted">{t('dashboard.noEntries')}</p>
          ) : (
            <ul className="entries">
              {course.userAttendance.map((entry) => (
                <li key={entry.roundId}>
                  {t('dashboard.round', { number: entry.roundNumber })} · {date(entry.date, i18n.language)} ·{' '}
                  <strong className={entry.status === 'Attended' ? 'ok' : 'bad'}>
                    {t(`dashboard.entry.${entry.status}`)}
                  </strong>
                  {entry.late && (
                    <>
                      {' '}
                      <span className="badge badge-pending">{t('round.late')}</span>
                    </>
                  )}
                </li>
              ))}
            </ul>
          ))}
      </div>
    </article>
  );
}
