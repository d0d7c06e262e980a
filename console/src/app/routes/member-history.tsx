import { useParams } from 'react-router-dom';
import { MemberHistoryPage } from '../../features/audit/components/member-history-page.tsx';
import { MemberDashboard } from '../../features/dashboard/components/member-dashboard.tsx';

/** One member as admins audit them: the dashboard the member sees, then their attendance history. */
export default function MemberHistoryRoute() {
  const { id = '' } = useParams();
  return <MemberHistoryPage id={id} dashboard={<MemberDashboard memberId={id} own={false} fallbackName={id} />} />;
}
