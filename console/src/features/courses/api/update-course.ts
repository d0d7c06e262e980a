import type { Done } from '@portal/contracts/answers';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import type { CourseText } from './create-course.ts';

/** PUT /api/admin/updatecourses/{id} */
export const updateCourse = (id: string, body: CourseText) =>
  api<z.infer<typeof Done>>(`/api/admin/updatecourses/${id}`, { method: 'PUT', body });
