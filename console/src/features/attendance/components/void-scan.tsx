import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { voidScan } from '../api/void-scan.ts';

/**
 * An admin voids a wrong scan, saying why. Nothing is deleted: the scan stays in the log and the
 * audit, and the counts drop it.
 */
export function VoidScan(props: { roundId: string; member: { _id: string; name: string }; onVoided: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  async function confirm() {
    if (!reason.trim()) return setProblem(t('rules::attendance.voidReasonRequired'));
    try {
      const answer = await voidScan(props.roundId, props.member._id, reason);
      toast('success', answer.message);
      setOpen(false);
      props.onVoided();
    } catch (error) {
      setProblem(error instanceof ApiError ? (error.body.errors?.reason ?? error.message) : t('round.appendError'));
    }
  }

  return (
    <>
      <button
        type="button"
        className="button small danger"
        onClick={() => setOpen(true)}
        aria-label={`${t('round.void')}: ${props.member.name}`}
      >
        {t('round.void')}
      </button>
      {open && (
        <ConfirmDialog
          title={t('round.voidTitle', { name: props.member.name })}
          destructive
          onCancel={() => setOpen(false)}
          onConfirm={() => void confirm()}
        >
          <label>
            {t('round.voidReason')}
            <textarea
              rows={3}
              value={reason}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? 'void-reason-error' : undefined}
              onChange={(event) => setReason(event.target.value)}
            />
          </label>
          {problem && (
            <small id="void-reason-error" className="field-error" role="alert">
              {problem}
            </small>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
