import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { searchFaq } from '../faq.ts';

/**
 * Help center (/helpcenter, spec 001 section 2.9): the seven questions, searched in both
 * languages, one answer open at a time, and a way to contact support.
 */
export function HelpCenterPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'th' ? 'th' : 'en';
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const found = searchFaq(term);
  return (
    <section className="help">
      <h1>{t('help.title')}</h1>
      <p className="muted">{t('help.intro')}</p>
      <input
        type="search"
        className="help-search"
        aria-label={t('help.search')}
        placeholder={t('help.search')}
        value={term}
        onChange={(event) => setTerm(event.target.value)}
      />
      {found.length === 0 ? (
        <p className="muted" role="status">
          {t('help.noResults', { term: term.trim() })}
        </p>
      ) : (
        <ul className="faq">
          {found.map((item) => {
            const expanded = open === item.id;
            return (
              <li key={item.id} className="card faq-item">
                <h2>
                  <button
                    type="button"
                    aria-expanded={expanded}
                    aria-controls={`faq-${item.id}`}
                    onClick={() => setOpen(expanded ? null : item.id)}
                  >
                    {item[language].q}
                  </button>
                </h2>
                <p id={`faq-${item.id}`} hidden={!expanded}>
                  {item[language].a}
                </p>
              </li>
            );
          })}
        </ul>
      )}
      <aside className="card help-support">
        <h2>{t('help.stillNeed')}</h2>
        <p>{t('help.hours')}</p>
        <p>{t('help.response')}</p>
        <p>{t('help.monthly')}</p>
        <Link className="button primary" to="/contact">
          {t('help.contactSupport')}
        </Link>
      </aside>
    </section>
  );
}
