import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AssistantList, AssistingAnswer } from '@portal/query-api/contracts/assistants';
import { api } from '../../../lib/api-client.ts';

const listKey = (courseId: string) => ['assistants', courseId] as const;

/** A course's scan-only assistants (its creator and admins). */
export const useCourseAssistants = (courseId: string) =>
  useQuery({
    queryKey: listKey(courseId),
    queryFn: () => api<z.infer<typeof AssistantList>>(`/api/admin/courses/${courseId}/assistants`),
  });

/** Adds or removes an assistant; the list is fetched again after. */
export function useChangeAssistants(courseId: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: listKey(courseId) });
  const add = useMutation({
    mutationFn: (username: string) =>
      api(`/api/admin/courses/${courseId}/assistants`, { method: 'POST', body: { username } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (assistantId: string) =>
      api(`/api/admin/courses/${courseId}/assistants/${assistantId}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  return { add, remove };
}

/** The rounds the signed-in member or partner may scan in as an assistant; checked every minute. */
export const useAssisting = () =>
  useQuery({
    queryKey: ['assisting'],
    queryFn: () => api<z.infer<typeof AssistingAnswer>>('/api/assisting'),
    refetchInterval: 60_000,
  });
