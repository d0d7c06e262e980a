import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CountsAsOfAnswer } from '@portal/contracts/views/audit';
import { api } from '../../../lib/api-client.ts';

/** GET /api/admin/courses/{id}/counts?asOf=: a course's counts as they stood then, once a moment is chosen. */
export const useCountsAsOf = (courseId: string, asOf: string | null) =>
  useQuery({
    queryKey: ['counts-as-of', courseId, asOf],
    queryFn: () =>
      api<z.infer<typeof CountsAsOfAnswer>>(`/api/admin/courses/${courseId}/counts?asOf=${encodeURIComponent(asOf!)}`),
    enabled: asOf !== null,
    retry: false,
  });
