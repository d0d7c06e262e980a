import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AssistantList } from '@portal/contracts/views/assistants';
import { api } from '../../../lib/api-client.ts';

export const assistantsKey = (courseId: string) => ['assistants', courseId] as const;

/** GET /api/admin/courses/{courseId}/assistants: a course's scan-only assistants (its creator and admins). */
export const useCourseAssistants = (courseId: string) =>
  useQuery({
    queryKey: assistantsKey(courseId),
    queryFn: () => api<z.infer<typeof AssistantList>>(`/api/admin/courses/${courseId}/assistants`),
  });
