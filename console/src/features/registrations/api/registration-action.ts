import type { Done as DoneAnswer } from '@portal/contracts/answers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { registrationsKey } from './get-registrations.ts';

type Done = z.infer<typeof DoneAnswer>;

export type Action = 'approve' | 'reject' | 'delete' | 'erase' | 'passwordLink';

/**
 * Approve or reject (PUT /api/admin/registration/{id}/status), delete (DELETE
 * /api/admin/registration/{id}), erase (DELETE /api/admin/members/{id}/personal-data) one
 * registration, or e-mail the person a link to set their password (POST
 * /api/admin/members/{id}/password-link), as the report's one action menu does; the table reloads
 * from the read models.
 */
export function useRegistrationAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, id }: { action: Action; id: string }) => {
      if (action === 'delete') return api<Done>(`/api/admin/registration/${id}`, { method: 'DELETE' });
      if (action === 'erase') return api<Done>(`/api/admin/members/${id}/personal-data`, { method: 'DELETE' });
      if (action === 'passwordLink') return api<Done>(`/api/admin/members/${id}/password-link`, { method: 'POST' });
      return api<Done>(`/api/admin/registration/${id}/status`, {
        method: 'PUT',
        body: { status: action === 'approve' ? 'approved' : 'rejected' },
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: registrationsKey }),
  });
}
