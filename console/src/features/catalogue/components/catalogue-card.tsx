import { useTranslation } from 'react-i18next';
import { dateTime } from '../../../lib/dates.ts';
import { CourseCardShell } from '../../../components/course-card-shell.tsx';
import type { CatalogueAnswer } from '../api/get-catalogue.ts';
import { nextRoundText } from '../next-round.ts';

/** One course of the catalogue: what it is, places left, the next round, and Enrol or Leave. */
export function CatalogueCard(props: {
  course: CatalogueAnswer['courses'][number];
  /** Only members enrol: staff see the card without its button. */
  canEnrol: boolean;
  busy: boolean;
  onEnrol: () => void;
  onLeave: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { course } = props;
  const full = course.seatsLeft === 0 && !course.enrolledByMe;
  const next = nextRoundText(course.nextRound);
  return (
    <CourseCardShell
      course={course}
      badge={course.enrolledByMe && <span className="badge badge-approved">{t('market.enrolled')}</span>}
    >
      <ul className="course-facts">
        <li>
          {course.seatsLeft === null
            ? t('market.unlimited')
            : full
              ? t('market.full')
              : t('market.seatsLeft', { count: course.seatsLeft })}
        </li>
        <li>
          {t('courses.rounds')}: {course.roundCount}
        </li>
        <li>{next.date ? t(next.key, { date: dateTime(next.date, i18n.language) }) : t(next.key)}</li>
      </ul>
      <div className="course-actions">
        {!props.canEnrol ? null : course.enrolledByMe ? (
          <button type="button" className="button" disabled={props.busy} onClick={props.onLeave}>
            {t('market.leave')}
          </button>
        ) : (
          <button
            type="button"
            className="button primary"
            disabled={props.busy || full || course.status !== 'public'}
            onClick={props.onEnrol}
          >
            {full ? t('market.full') : t('market.enrol')}
          </button>
        )}
      </div>
    </CourseCardShell>
  );
}
