import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router-dom';
import { useSession } from '../../lib/session.tsx';
import { Header } from './header.tsx';

/** The admin sidebar's links, in the spec's order (spec 000 section 2, screen 5). */
const adminLinks = [
  ['/report', 'screen.report'],
  ['/registrations', 'screen.registrations'],
  ['/courses', 'screen.courses'],
  ['/createcourse', 'screen.createcourse'],
  ['/addEmployee', 'screen.addemployee'],
  ['/sendemail', 'screen.sendemail'],
  ['/setting', 'screen.setting'],
  ['/helpcenter', 'screen.helpcenter'],
] as const;

/** Header on every page; admins also get the sidebar. */
export function AppLayout() {
  const { t } = useTranslation();
  const { user } = useSession();
  const isAdmin = user?.role === 'admin';
  return (
    <div className={isAdmin ? 'shell with-sidebar' : 'shell'}>
      <Header />
      {isAdmin && (
        <aside className="sidebar">
          <div className="sidebar-who">
            <div>
              {t('nav.role')}: {user.role}
            </div>
            <div>
              {t('nav.id')}: {user.id}
            </div>
          </div>
          <nav>
            {adminLinks.map(([to, label]) => (
              <NavLink key={to} to={to}>
                {t(label)}
              </NavLink>
            ))}
          </nav>
        </aside>
      )}
      <main className="content">
        <Outlet />
      </main>
    </div>
  );
}
