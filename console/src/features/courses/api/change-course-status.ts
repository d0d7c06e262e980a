import type { Done } from '@portal/contracts/answers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { type CoursePageAnswer, courseListKey } from './get-courses.ts';

/** PUT /api/admin/course/{id}/status: public or private; the card shows the new status as soon as the server accepts it. */
export function useCourseStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'public' | 'private' }) =>
      api<z.infer<typeof Done>>(`/api/admin/course/${id}/status`, { method: 'PUT', body: { status } }),
    onSuccess: (_answer, { id, status }) => {
      client.setQueriesData<CoursePageAnswer>(
        { queryKey: courseListKey },
        (page) =>
          page && {
            ...page,
            courses: page.courses.map((course) => (course._id === id ? { ...course, status } : course)),
          },
      );
      void client.invalidateQueries({ queryKey: ['courses'] });
    },
  });
}
