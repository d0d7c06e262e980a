import { AssistingRounds } from '../../features/assistants/components/assisting-rounds.tsx';
import { MemberPass } from '../../features/attendance/components/member-pass.tsx';
import { CataloguePage } from '../../features/catalogue/components/catalogue-page.tsx';
import { MemberDashboard } from '../../features/dashboard/components/member-dashboard.tsx';
import { MyCertificates } from '../../features/certificates/components/my-certificates.tsx';
import { useSession } from '../../lib/session.tsx';

/**
 * The members' home: their attendance pass first (above the fold on a phone: it is what they open
 * the portal for at the door), then their dashboard and the catalogue to enrol from.
 */
export default function EMarketRoute() {
  const { user } = useSession();
  return (
    <>
      {user?.role === 'member' && (
        <>
          <MemberPass />
          <AssistingRounds />
          <MemberDashboard
            memberId={user.id}
            own
            fallbackName={user.fullName || user.username}
            more={<MyCertificates />}
          />
        </>
      )}
      <CataloguePage />
    </>
  );
}
