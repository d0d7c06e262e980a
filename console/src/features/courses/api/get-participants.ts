import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { z } from 'zod';
import type { ParticipantList } from '@portal/contracts/views/course';

export type ParticipantAnswer = z.infer<typeof ParticipantList>;

/** GET /api/admin/courses/{id}/participants: everyone scanned in any round of the course, once each. */
export const useParticipants = (courseId: string) =>
  useQuery({
    queryKey: ['courses', 'participants', courseId],
    queryFn: () => api<ParticipantAnswer>(`/api/admin/courses/${courseId}/participants`),
  });
