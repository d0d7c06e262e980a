import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CourseDetails } from '@portal/contracts/views/course';
import { api } from '../../../lib/api-client.ts';

export type CourseDetailsAnswer = z.infer<typeof CourseDetails>;
export type CourseWithRounds = CourseDetailsAnswer['course'];

export const courseKey = (id: string) => ['courses', 'one', id] as const;

/** GET /api/admin/courses/{id}: one course with its rounds numbered in time order. */
export const useCourse = (id: string) =>
  useQuery({
    queryKey: courseKey(id),
    queryFn: () => api<CourseDetailsAnswer>(`/api/admin/courses/${id}`),
    enabled: id !== '',
    retry: false,
  });
