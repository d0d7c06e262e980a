import { z } from 'zod';
import { pageParam, pageSizeParam } from './query-params.ts';

/** A course as a member sees it in the catalogue (/e-market): no creator, no attendance counts. */
export const CatalogueCourse = z.object({
  _id: z.string(),
  courseTopic: z.string(),
  courseDescription: z.string(),
  courseImage: z.string().nullable(),
  status: z.enum(['public', 'private']),
  maxPeople: z.number(),
  enrolled: z.number(),
  /** Places left; null when the course has no limit (maxPeople 0). */
  seatsLeft: z.number().nullable(),
  roundCount: z.number(),
  /** The first round that has not ended yet, if any. */
  nextRound: z.object({ roundStartTime: z.string(), roundEndTime: z.string() }).nullable(),
  enrolledByMe: z.boolean(),
  createdAt: z.string(),
});
export type CatalogueCourse = z.infer<typeof CatalogueCourse>;

export const CatalogueQuery = z.object({
  search: z.string().trim().max(200).optional(),
  /** Only the courses the signed-in user is enrolled in (public or not); otherwise public courses. */
  mine: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  page: pageParam.default(1),
  pageSize: pageSizeParam(9),
  minPosition: z.coerce.number().int().optional(),
});
export type CatalogueQuery = z.infer<typeof CatalogueQuery>;

export const CataloguePage = z.object({
  success: z.literal(true),
  courses: z.array(CatalogueCourse),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  pages: z.number(),
  message: z.string(),
});
