import { useTranslation } from 'react-i18next';
import { ReportPage } from '../../features/courses/components/report-page.tsx';
import { RequireRole } from '../require-role.tsx';

/** Spec 001 section 2.5: others are told "You do not have permission to view this page.", before any call. */
export default function ReportRoute() {
  const { t } = useTranslation();
  return (
    <RequireRole roles={['admin', 'partner']} message={t('report.noPermission')}>
      <ReportPage />
    </RequireRole>
  );
}
