import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import type { Role } from '@portal/contracts/accounts/account.events';
import { homeOf, useSession } from '../lib/session.tsx';
import { signInThenBackTo } from '../lib/next-page.ts';

/**
 * A page this person may not open (spec 001 section 2.1's view), in words that fit them: a
 * visitor is asked to sign in; a signed-in person is told which accounts may open it (the spec's
 * "administrator account" only where that is true) and offered their own home as well as the
 * login screen. `message` replaces the sentence where the spec gives the screen its own.
 */
export function AccessDenied({ roles, message }: { roles: readonly Role[]; message?: string }) {
  const { t } = useTranslation();
  const { user, storedInvalid } = useSession();
  const here = useLocation();
  const body = !user
    ? t(storedInvalid ? 'settings.invalidStoredUser' : 'accessDenied.signIn')
    : (message ?? t(roles.includes('partner') ? 'accessDenied.staffBody' : 'accessDenied.body'));
  return (
    <section className="card" role="alert">
      <h1>{t('accessDenied.title')}</h1>
      <p>{body}</p>
      <div className="course-actions">
        {user && (
          <Link className="button primary" to={homeOf(user.role)}>
            {t('accessDenied.home')}
          </Link>
        )}
        {/* A visitor comes back here once signed in (a member who opened a room code's link, say). */}
        <Link
          className={user ? 'button' : 'button primary'}
          to={user ? '/login' : signInThenBackTo(here.pathname + here.search)}
        >
          {t('accessDenied.login')}
        </Link>
      </div>
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

/** What a screen shows while its data loads. */
export function Loading() {
  const { t } = useTranslation();
  return <div className="spinner" role="status" aria-label={t('form.loading')} />;
}

/** A load that failed: why (already in the reader's language), and a button to try again. */
export function LoadFailed({
  message,
  onRetry,
  retry = 'report.retry',
  title,
}: {
  message: string;
  onRetry: () => unknown;
  /** The button's words: the spec gives some screens "Retry Fetch", others "Retry". */
  retry?: 'report.retry' | 'settings.retry';
  title?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="card" role="alert">
      {title && <h2>{title}</h2>}
      <p>{message}</p>
      <button type="button" className="button" onClick={() => void onRetry()}>
        {t(retry)}
      </button>
    </div>
  );
}
