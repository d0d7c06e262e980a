import { MemberHistoryPage } from '../../features/audit/components/member-history-page.tsx';

export default function MemberHistoryRoute() {
  return <MemberHistoryPage />;
}
