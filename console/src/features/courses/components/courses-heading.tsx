import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** The heading of the course list and the report: the screen's name and Add Course. */
export function CoursesHeading({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <div className="page-heading">
      <h1>{title}</h1>
      <Link className="button primary" to="/createcourse">
        {t('courses.add')}
      </Link>
    </div>
  );
}
