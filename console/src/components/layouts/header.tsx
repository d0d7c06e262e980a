import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { homeOf, useSession } from '../../lib/session.tsx';
import { saveLang, saveTheme, storedLang, storedTheme } from '../../lib/storage.ts';
import { Clock } from './clock.tsx';

/** Switching language stores it and reloads, so every screen starts again in it (spec 000 section 1). */
function switchLanguage() {
  saveLang(storedLang() === 'en' ? 'th' : 'en');
  window.location.reload();
}

/** The header; in the admin layout it also carries the button that opens the drawer on small screens. */
export function Header({
  menu,
  notifications,
}: {
  menu?: { open: boolean; toggle: () => void };
  /** The notification bell, for a signed-in user (composed in by the router). */
  notifications?: ReactNode;
}) {
  const { t } = useTranslation();
  const { user, signOut } = useSession();
  const navigate = useNavigate();
  const [theme, setTheme] = useState(storedTheme);
  const switchTheme = () => {
    const next = theme === 'light' ? 'dark' : 'light';
    saveTheme(next);
    document.documentElement.dataset.theme = next;
    setTheme(next);
  };
  return (
    <header className="header">
      {menu && (
        <button
          type="button"
          className="button ghost menu-button"
          aria-label={t('nav.menu')}
          aria-expanded={menu.open}
          aria-controls="admin-sidebar"
          onClick={menu.toggle}
        >
          ☰
        </button>
      )}
      <Link to={user ? homeOf(user.role) : '/'} className="brand">
        {t('app.name')}
      </Link>
      <Clock />
      <div className="header-actions">
        <button
          type="button"
          className="button ghost"
          onClick={switchLanguage}
          lang={storedLang() === 'en' ? 'th' : 'en'}
        >
          {t('header.switchLanguage')}
        </button>
        <button
          type="button"
          className="button ghost"
          onClick={switchTheme}
          aria-label={t(theme === 'light' ? 'header.themeDark' : 'header.themeLight')}
        >
          ◐
        </button>
        {user && notifications}
      </div>
      {user && (
        <details
          className="user-menu"
          // Choosing an entry closes the menu.
          onClick={(event) => {
            if ((event.target as HTMLElement).closest('a, button')) event.currentTarget.open = false;
          }}
        >
          <summary>
            {/* The name read out starts with what is seen, as speech input users say it. */}
            {user.fullName || user.username}
            <span className="visually-hidden">, {t('header.userMenu')}</span>
          </summary>
          <nav>
            {/* Admins reach these from the sidebar; partners and members have only this menu. */}
            {user.role === 'partner' && <Link to="/courses">{t('screen.courses')}</Link>}
            {user.role === 'partner' && <Link to="/createcourse">{t('screen.createcourse')}</Link>}
            {user.role === 'partner' && <Link to="/report">{t('screen.report')}</Link>}
            {user.role === 'member' && <Link to="/e-market">{t('screen.emarket')}</Link>}
            <Link to="/setting">{t('header.settings')}</Link>
            <button
              type="button"
              onClick={async () => {
                await signOut();
                navigate('/', { replace: true });
              }}
            >
              {t('header.logout')}
            </button>
          </nav>
        </details>
      )}
    </header>
  );
}
