import type { ImageSaved } from '@portal/contracts/answers';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

/**
 * PUT /api/admin/courses/{id}/uploadImage, after the text; the create page names the file part
 * courseImage, the edit page profile.
 */
export function uploadCourseImage(id: string, file: File, field: 'courseImage' | 'profile') {
  const form = new FormData();
  form.append(field, file);
  return api<z.infer<typeof ImageSaved>>(`/api/admin/courses/${id}/uploadImage`, { method: 'PUT', body: form });
}
