import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { CoursePage, type CourseQuery } from '@portal/contracts/views/course';
import { MalformedAnswer, api } from '../../../lib/api-client.ts';
import { queryString } from '../../../lib/query-string.ts';

export type CourseFilters = Pick<CourseQuery, 'sort' | 'order'> & { search?: string; page: number; pageSize?: number };
export type CoursePageAnswer = z.infer<typeof CoursePage>;

/** Every cached page of the course list (a change to a course updates or drops them). */
export const courseListKey = ['courses', 'list'] as const;

/**
 * GET /api/admin/courses: one page of the course list, searched and sorted by the query API; an
 * answer not shaped as the contract says fails as a MalformedAnswer (the report names it).
 */
export const useCourseList = (filters: CourseFilters) =>
  useQuery({
    queryKey: [...courseListKey, filters],
    queryFn: async () => {
      const path = `/api/admin/courses?${queryString(filters)}`;
      const answer = await api<CoursePageAnswer>(path);
      if (!CoursePage.safeParse(answer).success) throw new MalformedAnswer(path);
      return answer;
    },
    placeholderData: keepPreviousData,
  });
