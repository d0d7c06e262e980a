import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import { useSession } from '../../lib/session.tsx';

/** The admin sidebar's links, in the spec's order (spec 000 section 2, screen 5). */
const before = [
  ['/report', 'screen.report'],
  ['/registrations', 'screen.registrations'],
  ['/audit', 'screen.audit'],
] as const;
const courseGroup = [
  ['/courses', 'screen.courses'],
  ['/createcourse', 'screen.createcourse'],
] as const;
const after = [
  ['/addEmployee', 'screen.addemployee'],
  ['/imports', 'screen.imports'],
  ['/sendemail', 'screen.sendemail'],
  ['/inbox', 'nav.inbox'],
  ['/setting', 'screen.setting'],
  ['/helpcenter', 'screen.helpcenter'],
] as const;

/**
 * Logo link to /admin, the user's role and id, the links (course management folds), and logout.
 * Under 768 px it is a drawer that slides in from the left; choosing a link closes it.
 */
export function AdminSidebar({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { user, signOut } = useSession();
  const navigate = useNavigate();
  const [coursesOpen, setCoursesOpen] = useState(true);
  const link = ([to, label]: readonly [string, Parameters<typeof t>[0]]) => (
    <NavLink key={to} to={to} onClick={onClose}>
      {t(label)}
    </NavLink>
  );
  return (
    <>
      {open && <div className="drawer-backdrop" onClick={onClose} aria-hidden="true" />}
      <aside id="admin-sidebar" className={`sidebar${open ? ' open' : ''}`} aria-label={t('nav.menu')}>
        <Link to="/admin" className="sidebar-logo" onClick={onClose}>
          {t('app.name')}
        </Link>
        <div className="sidebar-who">
          <div>
            {t('nav.role')}: {user?.role}
          </div>
          <div>
            {t('nav.id')}: {user?.id}
          </div>
        </div>
        <nav>
          {before.map(link)}
          <button
            type="button"
            className="nav-group"
            aria-expanded={coursesOpen}
            aria-controls="course-links"
            onClick={() => setCoursesOpen(!coursesOpen)}
          >
            {t('nav.courseManagement')}
            <span aria-hidden="true">{coursesOpen ? '▾' : '▸'}</span>
          </button>
          <div id="course-links" className="nav-group-links" hidden={!coursesOpen}>
            {courseGroup.map(link)}
          </div>
          {after.map(link)}
        </nav>
        <button
          type="button"
          className="button sidebar-logout"
          onClick={async () => {
            onClose();
            await signOut();
            navigate('/', { replace: true });
          }}
        >
          {t('header.logout')}
        </button>
      </aside>
    </>
  );
}
