import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { Sharp } from 'sharp';
import { HttpError } from '@portal/platform/http/errors';
import { languageOf } from '@portal/platform/http/language';
import { type MessageKey, translate } from '@portal/contracts/rules/messages';

const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif']);

/** A refusal of one field, translated, in the `errors` shape validation errors have. */
export const fieldError = (request: FastifyRequest, status: number, field: string, key: MessageKey) =>
  new HttpError(status, key, { errors: { [field]: translate(key, languageOf(request)) } });

interface UploadRules {
  /** The multipart field names accepted; the first names the field in errors. */
  fields: readonly string[];
  maxBytes: number;
  tooLarge: MessageKey;
}

/**
 * Reads the one uploaded file of a multipart request, refusing a missing file, another field name
 * or a file over the limit (the read stops at the limit; the whole file is never held).
 */
export async function readUpload(request: FastifyRequest, rules: UploadRules): Promise<Buffer> {
  const field = rules.fields[0]!;
  if (!request.isMultipart()) throw fieldError(request, 400, field, 'image.required');
  try {
    const file = await request.file({ limits: { fileSize: rules.maxBytes, files: 1 } });
    if (!file || !rules.fields.includes(file.fieldname)) throw fieldError(request, 400, field, 'image.required');
    return await file.toBuffer();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw fieldError(request, 413, field, rules.tooLarge);
    }
    // No boundary, a part cut off, a header busboy cannot read: the body is not a readable upload.
    throw fieldError(request, 400, field, 'upload.unreadable');
  }
}

export class NotAnImage extends Error {
  constructor() {
    super('not an image');
    this.name = 'NotAnImage';
  }
}

/**
 * Stores an uploaded image under `uploadsDir/folder`: the content decides what it is (never the
 * file name or the browser's content type), and it is re-encoded to WebP by `shape`, which also
 * drops any metadata (GPS, camera) the original carried. Answers the address it is served at.
 * sharp (and its native libvips) is loaded for the first image, not at every start (150 ms of the
 * portal's main thread; docs/performance.md, machine AL).
 */
export async function storeImage(
  uploadsDir: string,
  folder: string,
  content: Buffer,
  shape: (image: Sharp) => Sharp,
): Promise<string> {
  const { default: sharp } = await import('sharp');
  const format = await sharp(content)
    .metadata()
    .then((metadata) => metadata.format)
    .catch(() => undefined);
  if (!format || !ACCEPTED.has(format)) throw new NotAnImage();
  const image = await shape(sharp(content, { animated: false }).rotate())
    .webp({ quality: 82 })
    .toBuffer();
  await mkdir(join(uploadsDir, folder), { recursive: true });
  const name = `${randomUUID()}.webp`;
  await writeFile(join(uploadsDir, folder, name), image);
  return `/uploads/${folder}/${name}`;
}

/** Removes every image kept under `uploadsDir/folder`. */
export async function removeImages(uploadsDir: string, folder: string): Promise<void> {
  await rm(join(uploadsDir, folder), { recursive: true, force: true });
}
