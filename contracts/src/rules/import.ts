import { z } from 'zod';
import { MemberRegistration } from './registration.ts';
import type { MessageKey } from './messages.ts';

/**
 * Bulk onboarding (issue 23): a CSV of members, checked row by row under the registration rules,
 * then created in chunks. The file's columns, by the names the console's template gives them.
 */
const key = (messageKey: MessageKey) => messageKey;

export const IMPORT_COLUMNS = [
  'username',
  'title',
  'fullName',
  'personalId',
  'personalPhone',
  'personalEmail',
  'personalAddress',
  'personalProvince',
  'personalDistrict',
  'personalSubdistrict',
  'personalPostalCode',
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
/** The columns a file must have; the others may be left out. */
export const REQUIRED_IMPORT_COLUMNS = ['username', 'personalId', 'personalPhone', 'personalEmail'] as const;

/** At most this many people per file, and per request when creating them. */
export const IMPORT_MAX_ROWS = 20_000;
export const IMPORT_CHUNK_ROWS = 250;
/** 20,000 rows of a few hundred bytes each, with room to spare. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

/** One person of the file: the registration form's fields but the password (they set it by link). */
export const ImportedMember = MemberRegistration.omit({ password: true });
export type ImportedMember = z.output<typeof ImportedMember>;

/** POST /api/admin/imports/check: the file as text (a BOM, as Excel writes, is fine). */
export const ImportCheckRequest = z.object({
  csv: z.string({ error: key('import.notCsv') }).max(IMPORT_MAX_BYTES, key('import.tooLarge')),
});

const rawRow = Object.fromEntries(IMPORT_COLUMNS.map((column) => [column, z.string().max(2000).optional()])) as Record<
  ImportColumn,
  z.ZodOptional<z.ZodString>
>;

/**
 * POST /api/admin/imports/rows: a chunk of the checked file to create, each row with its line.
 * Each row's idempotency key is what it says (a hash of its values), so sending a chunk again, or
 * the file again after an interruption or with its wrong rows fixed, creates nobody twice.
 */
export const ImportRowsRequest = z.object({
  courseId: z
    .string()
    .regex(/^[0-9a-f]{24}$/, key('course.notFound'))
    .nullable()
    .default(null),
  rows: z
    .array(
      z.object({
        line: z
          .number()
          .int()
          .min(2)
          .max(IMPORT_MAX_ROWS + 1),
        ...rawRow,
      }),
    )
    .min(1)
    .max(IMPORT_CHUNK_ROWS, key('import.chunkTooLarge')),
});
export type ImportRowsRequest = z.output<typeof ImportRowsRequest>;
