import type { CourseCreated } from '@portal/contracts/answers';
import type { CourseCreation } from '@portal/contracts/rules/course';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

/** What the course form sends (the server's own request schema). */
export type CourseText = z.input<typeof CourseCreation>;

/** POST /api/admin/createcourses */
export const createCourse = (body: CourseText) =>
  api<z.infer<typeof CourseCreated>>('/api/admin/createcourses', { method: 'POST', body });
