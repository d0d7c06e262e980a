import { useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { homeOf, useSession } from '../../../lib/session.tsx';

/**
 * Settings saves (spec 000 section 4): each asks for confirmation first, cancel gives an info
 * toast, success a toast and the way home; a refusal shows the server's message, else the
 * fallback, and puts the server's field messages under their fields. Returns the values waiting
 * for confirmation and what to do with them.
 */
export function useConfirmedSave<Values extends FieldValues>(
  save: (values: Values) => Promise<unknown>,
  failed: { refused: string; error: string },
  setError: UseFormSetError<Values>,
) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const { user } = useSession();
  const [pending, setPending] = useState<Values | null>(null);
  return {
    pending,
    ask: (values: Values) => setPending(values),
    cancel() {
      setPending(null);
      toast('info', t('settings.cancelled'));
    },
    async confirm() {
      const values = pending!;
      setPending(null);
      try {
        const answer = (await save(values)) as { message?: string };
        toast('success', answer.message ?? t('settings.saved'));
        navigate(homeOf(user?.role ?? 'member'));
      } catch (error) {
        if (error instanceof ApiError) {
          // The server's refusals of single fields show under those fields.
          for (const [field, message] of Object.entries(error.body.errors ?? {})) {
            setError(field as Path<Values>, { type: 'server', message });
          }
          toast('error', error.message || failed.refused);
        } else toast('error', failed.error);
      }
    },
  };
}
