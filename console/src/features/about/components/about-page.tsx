import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

const values = ['integrity', 'innovation', 'collaboration', 'excellence'] as const;
const team = ['director', 'instructor', 'support', 'engineer'] as const;

/**
 * About (/about, spec 001 section 2.10): mission, the four core values, the story, the team and
 * a way to get in touch. The team is described by what each role does, not by invented people.
 */
export function AboutPage() {
  const { t } = useTranslation();
  return (
    <article className="about">
      <header className="card about-hero">
        <h1>{t('about.title')}</h1>
        <p>{t('about.tagline')}</p>
      </header>
      <section className="card" aria-labelledby="mission-title">
        <h2 id="mission-title">{t('about.missionTitle')}</h2>
        <p>{t('about.mission')}</p>
      </section>
      <section aria-labelledby="values-title">
        <h2 id="values-title">{t('about.valuesTitle')}</h2>
        <ul className="about-grid">
          {values.map((value) => (
            <li key={value} className="card">
              <h3>{t(`about.value.${value}`)}</h3>
              <p>{t(`about.value.${value}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="card" aria-labelledby="story-title">
        <h2 id="story-title">{t('about.storyTitle')}</h2>
        <p>{t('about.story')}</p>
      </section>
      <section aria-labelledby="team-title">
        <h2 id="team-title">{t('about.teamTitle')}</h2>
        <ul className="about-grid">
          {team.map((member) => (
            <li key={member} className="card">
              <h3>{t(`about.team.${member}`)}</h3>
              <p>{t(`about.team.${member}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="card about-contact">
        <p>{t('about.getInTouch')}</p>
        <Link className="button primary" to="/contact">
          {t('screen.contact')}
        </Link>
      </section>
    </article>
  );
}
