import { CataloguePage } from '../../features/catalogue/components/catalogue-page.tsx';
import { MemberDashboard } from '../../features/dashboard/components/member-dashboard.tsx';
import { useSession } from '../../lib/session.tsx';

/** The members' home: their dashboard first, then their pass and the catalogue to enrol from. */
export default function EMarketRoute() {
  const { user } = useSession();
  return (
    <>
      {user?.role === 'member' && (
        <MemberDashboard memberId={user.id} own fallbackName={user.fullName || user.username} />
      )}
      <CataloguePage />
    </>
  );
}
