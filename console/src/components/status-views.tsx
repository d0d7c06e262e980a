import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { homeOf, useSession } from '../lib/session.tsx';

export function AccessDenied() {
  const { t } = useTranslation();
  return (
    <section className="card" role="alert">
      <h1>{t('accessDenied.title')}</h1>
      <p>{t('accessDenied.body')}</p>
      <Link className="button primary" to="/login">
        {t('accessDenied.login')}
      </Link>
    </section>
  );
}

/**
 * Spec 001 section 2.14: back to the partner area for partners, the admin area for admins; members
 * go to their own home and visitors to sign-in rather than to a page they cannot open.
 */
export function NotFound() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <section className="card">
      <h1>{t('notFound.title')}</h1>
      <Link className="button primary" to={user ? homeOf(user.role) : '/'}>
        {t('notFound.home')}
      </Link>
    </section>
  );
}
