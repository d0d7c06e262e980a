import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ApiError, NetworkError } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.tsx';
import { useCourse } from '../api/get-course.ts';
import { CourseForm } from './course-form.tsx';

/** /createcourse: the empty form; the heading follows the topic as it is typed (spec 001 section 2.2). */
export function CreateCoursePage() {
  const { t } = useTranslation();
  const [topic, setTopic] = useState('');
  return (
    <section className="course-form-page">
      <h1>
        {t('courseForm.createHeading')}: {topic.trim() || t('courseForm.newCourse')}
      </h1>
      <CourseForm course={null} onTopicChange={setTopic} />
    </section>
  );
}

/**
 * /courses/edit/{id}: loads the course, then the form. A load failure says why, with Retry
 * Loading; someone who may not change this course is told so before typing anything.
 */
export function EditCoursePage({ id }: { id: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const course = useCourse(id);
  const data = course.data?.course;
  const heading = `${t('courseForm.updateHeading')}: ${data?.courseTopic ?? t('form.loading')}`;
  let body;
  if (course.isPending) {
    body = <p role="status">{t('courseForm.loadingCourse')}</p>;
  } else if (course.isError || !data) {
    const reason =
      course.error instanceof ApiError
        ? course.error.body.message || t('courseForm.loadFailed')
        : course.error instanceof NetworkError
          ? t('courseForm.loadNetwork')
          : t('courseForm.loadFailed');
    body = (
      <div className="card banner-error" role="alert">
        <p>{reason}</p>
        <button type="button" className="button" onClick={() => void course.refetch()}>
          {t('courseForm.retry')}
        </button>{' '}
        <button type="button" className="button" onClick={() => navigate('/admin/courses')}>
          {t('courseForm.goToCourses')}
        </button>
      </div>
    );
  } else if (user?.role !== 'admin' && user?.id !== data.creator) {
    body = (
      <div className="card" role="alert">
        <p>{t('rules::course.notCreator')}</p>
        <button type="button" className="button" onClick={() => navigate('/admin/courses')}>
          {t('courseForm.goToCourses')}
        </button>
      </div>
    );
  } else {
    body = <CourseForm key={data._id} course={data} serverTime={course.data?.serverTime} />;
  }
  return (
    <section className="course-form-page">
      <h1>{heading}</h1>
      {body}
    </section>
  );
}
