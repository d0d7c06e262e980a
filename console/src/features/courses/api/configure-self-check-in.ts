import type { Done } from '@portal/contracts/answers';
import type { SelfCheckInRules } from '@portal/contracts/courses/course.events';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { courseKey } from './get-course.ts';

/** PUT /api/admin/courses/{id}/self-check-in: where members must be to check themselves in, and one per device. */
export function useConfigureSelfCheckIn(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rules: SelfCheckInRules) =>
      api<z.infer<typeof Done>>(`/api/admin/courses/${id}/self-check-in`, { method: 'PUT', body: rules }),
    onSuccess: () => client.invalidateQueries({ queryKey: courseKey(id) }),
  });
}
