import { type ReactNode, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { useSession } from '../../lib/session.tsx';
import { AdminSidebar } from './admin-sidebar.tsx';
import { Header } from './header.tsx';
import { ProfileQrCard } from './profile-qr-card.tsx';

/**
 * The three shapes of every page: signed out, just the header; admins, the admin layout with its
 * sidebar (a drawer under 768 px); everyone else signed in, the partner layout with the profile
 * QR card (spec 000 screens 5 and 6). The page itself keeps its place in the tree whatever the
 * shape, so signing in does not remount the screen (and lose its success dialog).
 */
export function AppLayout({ notifications }: { notifications?: ReactNode }) {
  const { user } = useSession();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const isAdmin = user?.role === 'admin';
  const isPartnerLayout = user !== null && !isAdmin;
  return (
    <div className={isAdmin ? 'shell with-sidebar' : 'shell'}>
      <Header
        menu={isAdmin ? { open: drawerOpen, toggle: () => setDrawerOpen(!drawerOpen) } : undefined}
        notifications={notifications}
      />
      {isAdmin ? <AdminSidebar open={drawerOpen} onClose={() => setDrawerOpen(false)} /> : null}
      <div className={isPartnerLayout ? 'page partner-body' : 'page'}>
        <main className="content">
          <Outlet />
        </main>
        {isPartnerLayout ? (
          <aside className="partner-aside">
            <ProfileQrCard />
          </aside>
        ) : null}
      </div>
    </div>
  );
}
