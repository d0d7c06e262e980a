import { useTranslation } from 'react-i18next';

/** Previous, "page / total", next (spec 001 section 2.1). */
export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  return (
    <nav className="pager" aria-label={t('registrations.pages')}>
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('registrations.previous')}
      </button>
      <span>
        {page} / {pages}
      </span>
      <button type="button" className="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('registrations.next')}
      </button>
    </nav>
  );
}
