import { z } from 'zod';
import type { MessageKey } from '@portal/contracts/rules/messages';

/**
 * Query parameters the lists share. A value the API does not know is a 400 naming the parameter
 * (never a quiet fallback to the default, which would show the user something they did not ask for).
 */
const key = (messageKey: MessageKey) => messageKey;

export const pageParam = z.coerce
  .number({ error: key('report.page') })
  .int(key('report.page'))
  .min(1, key('report.page'));
export const pageSizeParam = (fallback: number) => pageParam.max(100, key('report.page')).default(fallback);
export const orderParam = z.enum(['asc', 'desc'], { error: key('report.order') }).default('desc');
export const sortParam = <const Fields extends readonly [string, ...string[]]>(
  fields: Fields,
  fallback: Fields[number],
) => z.enum(fields, { error: key('report.sort') }).default(fallback);

/** What every paged answer carries beside its rows (query-api's \`paged\`): the count, the page, its size, the pages. */
export const pageFields = { total: z.number(), page: z.number(), pageSize: z.number(), pages: z.number() };
