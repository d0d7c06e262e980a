import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * POST or DELETE /api/courses/{id}/enroll: enrol in, or leave, a course as the signed-in member;
 * the catalogue and the member's dashboard above it reload from the read models (waiting for
 * this write, read-your-writes).
 */
export function useEnrolment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enrol }: { id: string; enrol: boolean }) =>
      api<{ message: string }>(`/api/courses/${id}/enroll`, { method: enrol ? 'POST' : 'DELETE' }),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ['catalogue'] }),
        client.invalidateQueries({ queryKey: ['member-report'] }),
      ]),
  });
}
