import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST or DELETE /api/courses/{id}/enroll: enrol in, or leave, a course as the signed-in member; both lists reload from the read models. */
export function useEnrolment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enrol }: { id: string; enrol: boolean }) =>
      api<{ message: string }>(`/api/courses/${id}/enroll`, { method: enrol ? 'POST' : 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: ['catalogue'] }),
  });
}
