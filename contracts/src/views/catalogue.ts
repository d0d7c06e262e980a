import { z } from 'zod';
import { CourseView } from './course.ts';
import { pageParam, pageSizeParam, pageFields } from './query-params.ts';

/** A course as a member sees it in the catalogue (/e-market): no creator, no attendance counts. */
export const CatalogueCourse = CourseView.pick({
  _id: true,
  courseTopic: true,
  courseDescription: true,
  courseImage: true,
  status: true,
  maxPeople: true,
  enrolled: true,
  createdAt: true,
}).extend({
  /** Places left; null when the course has no limit (maxPeople 0). */
  seatsLeft: z.number().nullable(),
  roundCount: z.number(),
  /** The first round that has not ended yet, if any. */
  nextRound: z.object({ roundStartTime: z.string(), roundEndTime: z.string() }).nullable(),
  enrolledByMe: z.boolean(),
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
  ...pageFields,
  message: z.string(),
});
