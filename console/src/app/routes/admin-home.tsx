import { AdminOverview } from '../../features/overview/components/admin-overview.tsx';

export default function AdminHomeRoute() {
  return <AdminOverview />;
}
