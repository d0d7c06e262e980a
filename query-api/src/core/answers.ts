import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringify } from 'csv-stringify/sync';
import { type MessageKey, translate } from '@portal/contracts/rules/messages';
import { languageOf } from '@portal/platform/http/language';
import { pagesOf } from './paging.ts';
import { safeCsv } from './safe-csv.ts';

/** The answers every read route gives, in one shape each. */

/** A successful answer, its message in the caller's language. */
export const answer = <Body extends object>(request: FastifyRequest, message: MessageKey, body: Body) => ({
  success: true as const,
  ...body,
  message: translate(message, languageOf(request)),
});

/** One page of what was found: with the page asked for, its size, and how many pages there are. */
export const paged = <Found extends { total: number }>(
  found: Found,
  { page, pageSize }: { page: number; pageSize: number },
) => ({ ...found, page, pageSize, pages: pagesOf(found.total, pageSize) });

/**
 * A CSV download: UTF-8 with a byte-order mark (so Excel shows Thai), every cell written safely
 * and moments in the caller's time zone (./safe-csv.ts).
 */
export function csvFile(
  reply: FastifyReply,
  file: { name: string; columns: readonly string[]; zone: string },
  rows: unknown[][],
): string {
  reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file.name}"`);
  return `\uFEFF${stringify([file.columns, ...rows], safeCsv(file.zone))}`;
}
