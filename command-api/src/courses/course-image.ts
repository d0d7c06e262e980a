import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { removeImages, storeImage } from '../core/uploaded-image.ts';

/** The edit page's limit (spec 001 section 5): larger uploads are refused before they are read whole. */
export const COURSE_IMAGE_BYTES = 10 * 1024 * 1024;
const folderOf = (courseId: string) => `courses/${courseId}`;

/** Stores a course image as a WebP no larger than 1280x720 (never enlarged); answers its address. */
export const storeCourseImage = (uploadsDir: string, courseId: string, content: Buffer): Promise<string> =>
  storeImage(uploadsDir, folderOf(courseId), content, (image) =>
    image.resize(1280, 720, { fit: 'inside', withoutEnlargement: true }),
  );

/** Removes the course's images except the one at `keep` (the current one), or all of them. */
export async function removeCourseImages(uploadsDir: string, courseId: string, keep?: string): Promise<void> {
  if (!keep) return removeImages(uploadsDir, folderOf(courseId));
  const folder = join(uploadsDir, folderOf(courseId));
  const names = await readdir(folder).catch(() => [] as string[]);
  await Promise.all(
    names.filter((name) => name !== basename(keep)).map((name) => rm(join(folder, name), { force: true })),
  );
}
