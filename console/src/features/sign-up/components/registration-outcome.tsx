import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useNotice } from '../../../components/ui/use-notice.tsx';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * What both registration forms do with the server's answer (spec 000 section 8): success shows
 * สมัครสมาชิกสำเร็จ! and goes to /; taken values and refused fields show under their fields;
 * any other refusal shows สมัครสมาชิกไม่สำเร็จ with the server's message; no answer shows
 * เกิดข้อผิดพลาด.
 */
export function useRegistrationOutcome<Values extends FieldValues>(
  setError: UseFormSetError<Values>,
  noAnswer: string,
  /** Instead of สมัครสมาชิกสำเร็จ! and going to /: the admin's form says so and starts again. */
  success?: { title: string; then: () => void },
) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { show: setNotice, dialog } = useNotice();
  const fieldError = (field: string, message: string) => setError(field as Path<Values>, { type: 'server', message });

  function succeeded() {
    setNotice(
      success
        ? { tone: 'success', ...success }
        : { tone: 'success', title: t('rules::register.success'), then: () => navigate('/', { replace: true }) },
    );
  }

  function failed(error: Error) {
    if (error instanceof ApiError) {
      const { fields, errors } = error.body as { fields?: Record<string, boolean>; errors?: Record<string, string> };
      if (error.status === 409 && fields) {
        for (const [field, taken] of Object.entries(fields)) if (taken) fieldError(field, `duplicate.${field}`);
      }
      if (error.status === 400 && errors) {
        for (const [field, message] of Object.entries(errors)) fieldError(field, message);
      }
      setNotice({ tone: 'error', title: t('rules::register.failed'), message: error.message });
      return;
    }
    setNotice({ tone: 'error', title: t('dialog.error'), message: `${noAnswer} (${error.message})` });
  }

  return { succeeded, failed, dialog };
}
