import { removeImages, storeImage } from '../core/uploaded-image.ts';

/** The stated limit of spec 000 (2 MB); larger uploads are refused before they are read whole. */
export const PROFILE_IMAGE_BYTES = 2 * 1024 * 1024;
const SIZE = 150;

/** Stores a profile photo as a 150x150 WebP; answers the address it is served at. */
export const storeProfileImage = (uploadsDir: string, accountId: string, content: Buffer): Promise<string> =>
  storeImage(uploadsDir, `profiles/${accountId}`, content, (image) => image.resize(SIZE, SIZE, { fit: 'cover' }));

/** Removes every photo the account uploaded (on erasure or deletion). */
export const removeProfileImages = (uploadsDir: string, accountId: string): Promise<void> =>
  removeImages(uploadsDir, `profiles/${accountId}`);
