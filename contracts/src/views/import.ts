import { z } from 'zod';

/**
 * A row of an import as the admin sees it: who it names, and what will happen (`new`), what is
 * wrong with it (`invalid`, a message per field in the admin's language), or that an earlier run
 * of this same file already created it (`imported`).
 */
export const ImportRowView = z.object({
  line: z.number(),
  values: z.record(z.string(), z.string()),
  status: z.enum(['new', 'invalid', 'imported']),
  errors: z.record(z.string(), z.string()),
});
export type ImportRowView = z.infer<typeof ImportRowView>;

/** POST /api/admin/imports/check: the dry run. */
export const ImportCheck = z.object({
  success: z.literal(true),
  rows: z.array(ImportRowView),
  summary: z.object({ rows: z.number(), new: z.number(), invalid: z.number(), imported: z.number() }),
});
export type ImportCheck = z.infer<typeof ImportCheck>;

/** POST /api/admin/imports/rows: what became of each row of the chunk. */
export const ImportRowsAnswer = z.object({
  success: z.literal(true),
  position: z.number(),
  results: z.array(
    z.object({
      line: z.number(),
      status: z.enum(['created', 'imported', 'invalid']),
      accountId: z.string().nullable(),
      /** Enrolled in the course asked for (null: no course asked, or not created). */
      enrolled: z.boolean().nullable(),
      errors: z.record(z.string(), z.string()),
    }),
  ),
});
export type ImportRowsAnswer = z.infer<typeof ImportRowsAnswer>;
