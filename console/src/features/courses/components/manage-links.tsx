import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** Edit and Delete on a course's card, for its creator and admins. */
export function ManageLinks({ courseId, onDelete }: { courseId: string; onDelete: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Link className="button small" to={`/courses/edit/${courseId}`}>
        {t('courses.edit')}
      </Link>
      <button type="button" className="button small danger" onClick={onDelete}>
        {t('courses.delete')}
      </button>
    </>
  );
}
