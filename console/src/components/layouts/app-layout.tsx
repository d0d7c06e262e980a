import { type ReactNode, Suspense, lazy, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { restOfWords } from '../../lib/i18n.ts';
import { useSession } from '../../lib/session.tsx';
import { AdminSidebar } from './admin-sidebar.tsx';
import { Header } from './header.tsx';

// Signed in only: the profile QR card, loaded when first shown (the sign-in page carries neither it nor the QR library).
const ProfileQrCard = lazy(() =>
  Promise.all([import('./profile-qr-card.tsx'), restOfWords()]).then(([module]) => ({ default: module.ProfileQrCard })),
);

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
            <Suspense fallback={null}>
              <ProfileQrCard />
            </Suspense>
          </aside>
        ) : null}
      </div>
    </div>
  );
}
