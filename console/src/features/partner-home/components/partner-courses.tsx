import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { PartnerHomeAnswer } from '../api/get-partner-home.ts';
import { TableWrap } from '../../../components/ui/table-wrap.tsx';

/** The courses a partner created, newest first, with the same counts as the attendance report. */
export function PartnerCourses({ courses }: { courses: PartnerHomeAnswer['courses'] }) {
  const { t } = useTranslation();
  return (
    <section className="card partner-courses" aria-labelledby="partner-courses-title">
      <h2 id="partner-courses-title">{t('partnerHome.courses')}</h2>
      {courses.length === 0 ? (
        <div className="empty" data-testid="partner-no-courses">
          <p>{t('partnerHome.noCourses')}</p>
          <Link className="button primary" to="/createcourse">
            {t('screen.createcourse')}
          </Link>
        </div>
      ) : (
        <TableWrap label={t('partnerHome.courses')}>
          <table className="stacked" data-testid="partner-courses">
            <thead>
              <tr>
                <th scope="col">{t('history.course')}</th>
                <th scope="col">{t('registrations.status')}</th>
                <th scope="col">{t('courses.enrolled')}</th>
                <th scope="col">{t('courses.rounds')}</th>
                <th scope="col">{t('courses.attended')}</th>
                <th scope="col">{t('courses.absent')}</th>
              </tr>
            </thead>
            <tbody>
              {courses.map((course) => (
                <tr key={course._id}>
                  <th scope="row">
                    <Link to={`/courses/${course._id}`}>{course.courseTopic}</Link>
                  </th>
                  <td data-label={t('registrations.status')}>
                    {t(course.status === 'public' ? 'courses.public' : 'courses.private')}
                  </td>
                  <td data-label={t('courses.enrolled')}>{course.enrolled}</td>
                  <td data-label={t('courses.rounds')}>{course.rounds.length}</td>
                  <td data-label={t('courses.attended')}>{course.totalAttend}</td>
                  <td data-label={t('courses.absent')}>{course.totalAbsent}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <nav className="card-links">
        <Link to="/courses">{t('screen.courses')}</Link>
        <Link to="/report">{t('screen.report')}</Link>
      </nav>
    </section>
  );
}
