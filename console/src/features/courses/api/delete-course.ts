import type { Done } from '@portal/contracts/answers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { type CoursePageAnswer, courseListKey } from './get-courses.ts';

/**
 * DELETE /api/admin/deletecourse/{id}: deleting removes the card at once (spec 001 section 4); when the server refuses or cannot be
 * reached, the list comes back as it was.
 */
export function useDeleteCourse() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<z.infer<typeof Done>>(`/api/admin/deletecourse/${id}`, { method: 'DELETE' }),
    onMutate: async (id) => {
      await client.cancelQueries({ queryKey: courseListKey });
      const before = client.getQueriesData<CoursePageAnswer>({ queryKey: courseListKey });
      client.setQueriesData<CoursePageAnswer>(
        { queryKey: courseListKey },
        (page) =>
          page && { ...page, courses: page.courses.filter((course) => course._id !== id), total: page.total - 1 },
      );
      return { before };
    },
    onError: (_error, _id, context) => {
      for (const [key, page] of context?.before ?? []) client.setQueryData(key, page);
    },
    onSettled: () => client.invalidateQueries({ queryKey: ['courses'] }),
  });
}
