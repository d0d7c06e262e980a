import { useTranslation } from 'react-i18next';

/**
 * Previous, "page / total" (or, `spelled`, "Page X of Y" as the reports show it), next (spec 001
 * sections 2.1 and 2.5).
 */
export function Pager(props: { page: number; pages: number; onPage: (page: number) => void; spelled?: boolean }) {
  const { page, pages, onPage } = props;
  const { t } = useTranslation();
  return (
    <nav className="pager" aria-label={t('registrations.pages')}>
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('registrations.previous')}
      </button>
      <span>{props.spelled ? t('registrations.pageOf', { page, pages }) : `${page} / ${pages}`}</span>
      <button type="button" className="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('registrations.next')}
      </button>
    </nav>
  );
}
