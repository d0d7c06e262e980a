import type { Done as DoneAnswer } from '@portal/contracts/answers';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { RegistrationPage, RegistrationQuery } from '@portal/query-api/contracts/account';
import { api, apiFile } from '../../../lib/api-client.ts';
import { browserTimeZone } from '../../../lib/dates.ts';

type Done = z.infer<typeof DoneAnswer>;

export type Filters = Pick<RegistrationQuery, 'search' | 'status' | 'sort' | 'order'> & { page: number };

const queryString = (filters: Partial<Filters> & { tz?: string }) =>
  new URLSearchParams(
    Object.entries(filters)
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([key, value]) => [key, String(value)]),
  ).toString();

export const useRegistrations = (filters: Filters) =>
  useQuery({
    queryKey: ['registrations', filters],
    queryFn: () => api<z.infer<typeof RegistrationPage>>(`/api/admin/registration?${queryString({ ...filters })}`),
    placeholderData: keepPreviousData,
  });

/** The CSV of the filtered rows. */
export function exportRegistrations(filters: Filters): Promise<Blob> {
  const { page: _page, ...rest } = filters;
  return apiFile(`/api/admin/registration/export.csv?${queryString({ ...rest, tz: browserTimeZone() })}`);
}

export type Action = 'approve' | 'reject' | 'delete' | 'erase';

/** Approve, reject, delete or erase one registration; the table reloads from the read models. */
export function useRegistrationAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, id }: { action: Action; id: string }) => {
      if (action === 'delete') return api<Done>(`/api/admin/registration/${id}`, { method: 'DELETE' });
      if (action === 'erase') return api<Done>(`/api/admin/members/${id}/personal-data`, { method: 'DELETE' });
      return api<Done>(`/api/admin/registration/${id}/status`, {
        method: 'PUT',
        body: { status: action === 'approve' ? 'approved' : 'rejected' },
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['registrations'] }),
  });
}
