import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

/** The stated limit of spec 000 (2 MB); larger uploads are refused before they are read whole. */
export const PROFILE_IMAGE_BYTES = 2 * 1024 * 1024;
const SIZE = 150;
const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif']);

export class NotAnImage extends Error {
  constructor() {
    super('not an image');
    this.name = 'NotAnImage';
  }
}

/**
 * Stores a profile photo: the content decides what it is (never the file name or the browser's
 * content type), and it is re-encoded to a 150x150 WebP, which also drops any metadata (GPS,
 * camera) the original carried. Answers the address it is served at.
 */
export async function storeProfileImage(uploadsDir: string, accountId: string, content: Buffer): Promise<string> {
  const format = await sharp(content)
    .metadata()
    .then((metadata) => metadata.format)
    .catch(() => undefined);
  if (!format || !ACCEPTED.has(format)) throw new NotAnImage();
  const image = await sharp(content, { animated: false })
    .rotate()
    .resize(SIZE, SIZE, { fit: 'cover' })
    .webp({ quality: 85 })
    .toBuffer();
  const folder = join(uploadsDir, 'profiles', accountId);
  await mkdir(folder, { recursive: true });
  const name = `${randomUUID()}.webp`;
  await writeFile(join(folder, name), image);
  return `/uploads/profiles/${accountId}/${name}`;
}

/** Removes every photo the account uploaded (on erasure or deletion). */
export async function removeProfileImages(uploadsDir: string, accountId: string): Promise<void> {
  await rm(join(uploadsDir, 'profiles', accountId), { recursive: true, force: true });
}
