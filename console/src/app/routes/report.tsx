import { ReportPage } from '../../features/reports/components/report-page.tsx';

export default function ReportRoute() {
  return <ReportPage />;
}
