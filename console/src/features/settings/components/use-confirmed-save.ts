import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { homeOf, useSession } from '../../../lib/session.tsx';

/**
 * Settings saves (spec 000 section 4): each asks for confirmation first, cancel gives an info
 * toast, success a toast and the way home; a refusal shows the server's message, else the
 * fallback. Returns the values waiting for confirmation and what to do with them.
 */
export function useConfirmedSave<Values>(
  save: (values: Values) => Promise<unknown>,
  failed: { refused: string; error: string },
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
    async confirm(onRefused?: (error: ApiError) => void) {
      const values = pending!;
      setPending(null);
      try {
        const answer = (await save(values)) as { message?: string };
        toast('success', answer.message ?? t('settings.saved'));
        navigate(homeOf(user?.role ?? 'member'));
      } catch (error) {
        if (error instanceof ApiError) {
          onRefused?.(error);
          toast('error', error.message || failed.refused);
        } else toast('error', failed.error);
      }
    },
  };
}
