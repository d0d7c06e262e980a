import { AuditPage } from '../../features/audit/components/audit-page.tsx';

export default function AuditRoute() {
  return <AuditPage />;
}
