import type { AssistantSaved, Done } from '@portal/contracts/answers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { assistantsKey } from './get-assistants.ts';

/**
 * Adds (POST /api/admin/courses/{courseId}/assistants) or removes (DELETE
 * .../assistants/{assistantId}) an assistant; the list is fetched again after.
 */
export function useChangeAssistants(courseId: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: assistantsKey(courseId) });
  const add = useMutation({
    mutationFn: (username: string) =>
      api<z.infer<typeof AssistantSaved>>(`/api/admin/courses/${courseId}/assistants`, {
        method: 'POST',
        body: { username },
      }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (assistantId: string) =>
      api<z.infer<typeof Done>>(`/api/admin/courses/${courseId}/assistants/${assistantId}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  return { add, remove };
}
