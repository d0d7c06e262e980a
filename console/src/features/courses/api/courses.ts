import type { CourseCreated, Done as DoneAnswer, ImageSaved } from '@portal/contracts/answers';
import type { CourseCreation } from '@portal/contracts/rules/course';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CourseDetails, CoursePage, CourseQuery, ParticipantList } from '@portal/query-api/contracts/course';
import { api } from '../../../lib/api-client.ts';

export type CourseFilters = Pick<CourseQuery, 'sort' | 'order'> & { search?: string; page: number; pageSize?: number };
export type CoursePageAnswer = z.infer<typeof CoursePage>;
export type CourseDetailsAnswer = z.infer<typeof CourseDetails>;
export type CourseWithRounds = CourseDetailsAnswer['course'];
export type ParticipantAnswer = z.infer<typeof ParticipantList>;

type Done = z.infer<typeof DoneAnswer>;

const listKey = ['courses', 'list'] as const;
export const courseKey = (id: string) => ['courses', 'one', id] as const;

const queryString = (filters: CourseFilters) =>
  new URLSearchParams(
    Object.entries(filters)
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([key, value]) => [key, String(value)]),
  ).toString();

/** One page (9) of the course list, searched and sorted by the query API. */
export const useCourseList = (filters: CourseFilters) =>
  useQuery({
    queryKey: [...listKey, filters],
    queryFn: () => api<CoursePageAnswer>(`/api/admin/courses?${queryString(filters)}`),
    placeholderData: keepPreviousData,
  });

export const useCourse = (id: string) =>
  useQuery({
    queryKey: courseKey(id),
    queryFn: () => api<CourseDetailsAnswer>(`/api/admin/courses/${id}`),
    enabled: id !== '',
    retry: false,
  });

/** Public or private; the card shows the new status as soon as the server accepts it. */
export function useCourseStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'public' | 'private' }) =>
      api<Done>(`/api/admin/course/${id}/status`, { method: 'PUT', body: { status } }),
    onSuccess: (_answer, { id, status }) => {
      client.setQueriesData<CoursePageAnswer>(
        { queryKey: listKey },
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

/**
 * Deleting removes the card at once (spec 001 section 4); when the server refuses or cannot be
 * reached, the list comes back as it was.
 */
export function useDeleteCourse() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Done>(`/api/admin/deletecourse/${id}`, { method: 'DELETE' }),
    onMutate: async (id) => {
      await client.cancelQueries({ queryKey: listKey });
      const before = client.getQueriesData<CoursePageAnswer>({ queryKey: listKey });
      client.setQueriesData<CoursePageAnswer>(
        { queryKey: listKey },
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

/** What the course form sends (the server's own request schema). */
export type CourseText = z.input<typeof CourseCreation>;

export const createCourse = (body: CourseText) =>
  api<z.infer<typeof CourseCreated>>('/api/admin/createcourses', { method: 'POST', body });

export const updateCourse = (id: string, body: CourseText) =>
  api<Done>(`/api/admin/updatecourses/${id}`, { method: 'PUT', body });

/** The image after the text; the create page names the file part courseImage, the edit page profile. */
export function uploadCourseImage(id: string, file: File, field: 'courseImage' | 'profile') {
  const form = new FormData();
  form.append(field, file);
  return api<z.infer<typeof ImageSaved>>(`/api/admin/courses/${id}/uploadImage`, { method: 'PUT', body: form });
}

export interface RoundTimes {
  roundStartTime: string;
  roundEndTime: string;
}

export const scheduleRound = (courseId: string, body: RoundTimes) =>
  api<Done>(`/api/admin/courses/${courseId}/rounds`, { method: 'POST', body });

export const rescheduleRound = (courseId: string, roundId: string, body: RoundTimes) =>
  api<Done>(`/api/admin/courses/${courseId}/rounds/${roundId}`, { method: 'PUT', body });

export const cancelRound = (courseId: string, roundId: string) =>
  api<Done>(`/api/admin/courses/${courseId}/rounds/${roundId}`, { method: 'DELETE' });
