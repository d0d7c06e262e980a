import { apiFile } from '../../../lib/api-client.ts';
import { browserTimeZone } from '../../../lib/dates.ts';
import { queryString } from '../../../lib/query-string.ts';
import type { Filters } from './get-registrations.ts';

/** GET /api/admin/registration/export.csv: the filtered rows, times in the browser's zone. */
export function exportRegistrations(filters: Filters): Promise<Blob> {
  const { page: _page, ...rest } = filters;
  return apiFile(`/api/admin/registration/export.csv?${queryString({ ...rest, tz: browserTimeZone() })}`);
}
