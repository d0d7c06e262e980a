import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CourseView } from '@portal/contracts/views/course';
import { CourseImage } from './course-image.tsx';

/**
 * The frame every course card shares (the course list, the report, the catalogue): the image, the
 * topic as the card's name, the description, any figures as a list of terms, then what the card
 * adds (dates, actions).
 */
export function CourseCardShell(props: {
  course: Pick<CourseView, '_id' | 'courseImage' | 'courseTopic' | 'courseDescription'>;
  /** Shown after the topic (the catalogue's "Enrolled"). */
  badge?: ReactNode;
  facts?: readonly (readonly [string, ReactNode])[];
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { course } = props;
  const titleId = `course-${course._id}`;
  return (
    <article className="card course-card" aria-labelledby={titleId}>
      <CourseImage src={course.courseImage} />
      <div className="course-card-body">
        <h2 id={titleId}>
          {course.courseTopic}
          {props.badge && <> {props.badge}</>}
        </h2>
        <p className="course-description">{course.courseDescription || t('courses.noDescription')}</p>
        {props.facts && (
          <dl className="course-counts">
            {props.facts.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        )}
        {props.children}
      </div>
    </article>
  );
}
