import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CourseImage } from './course-image.tsx';

/**
 * The frame every course card shares (the course list, the report, the catalogue): the image, the
 * topic as the card's name, the description, any figures as a list of terms, then what the card
 * adds (dates, actions).
 */
export function CourseCardShell(props: {
  id: string;
  image: string | null;
  title: ReactNode;
  description: string;
  facts?: readonly (readonly [string, ReactNode])[];
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const titleId = `course-${props.id}`;
  return (
    <article className="card course-card" aria-labelledby={titleId}>
      <CourseImage src={props.image} />
      <div className="course-card-body">
        <h2 id={titleId}>{props.title}</h2>
        <p className="course-description">{props.description || t('courses.noDescription')}</p>
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
