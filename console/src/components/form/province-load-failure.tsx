import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProvinces } from '../../lib/thai-addresses.ts';
import { Dialog } from '../ui/dialog.tsx';

/** The dialog ไม่สามารถโหลดข้อมูลจังหวัดได้ when the province list cannot be loaded (once per form). */
export function ProvinceLoadFailure() {
  const { t } = useTranslation();
  const provinces = useProvinces();
  const [dismissed, setDismissed] = useState(false);
  if (!provinces.isError || dismissed) return null;
  return (
    <Dialog tone="error" title={t('dialog.error')} onClose={() => setDismissed(true)}>
      {t('form.provincesFailed')}
    </Dialog>
  );
}
