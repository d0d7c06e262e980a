import { ReportPage } from '../../features/courses/components/report-page.tsx';

export default function ReportRoute() {
  return <ReportPage />;
}
