import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { IMPORT_CHUNK_ROWS, IMPORT_COLUMNS } from '@portal/contracts/rules/import';
import type { CourseList } from '@portal/contracts/views/course';
import type { ImportCheck, ImportRowView, ImportRowsAnswer } from '@portal/contracts/views/import';
import { api } from '../../../lib/api-client.ts';

/** POST /api/admin/imports/check: the dry run of a file. */
export const checkImport = (csv: string) =>
  api<ImportCheck>('/api/admin/imports/check', { method: 'POST', body: { csv } });

export type RowResult = ImportRowsAnswer['results'][number];

/**
 * Creates the checked file's new rows, a chunk at a time (POST /api/admin/imports/rows), telling
 * `progress` after each; a chunk that fails stops the import (what was created stays created,
 * and importing the same file again goes on from there).
 */
export async function importRows(
  check: ImportCheck,
  courseId: string | null,
  progress: (done: number, total: number) => void,
): Promise<RowResult[]> {
  const rows = check.rows.filter((row) => row.status !== 'invalid');
  const results: RowResult[] = [];
  progress(0, rows.length);
  for (let from = 0; from < rows.length; from += IMPORT_CHUNK_ROWS) {
    const chunk = rows.slice(from, from + IMPORT_CHUNK_ROWS).map((row: ImportRowView) => ({
      line: row.line,
      ...row.values,
    }));
    const answer = await api<ImportRowsAnswer>('/api/admin/imports/rows', {
      method: 'POST',
      body: { courseId, rows: chunk },
    });
    results.push(...answer.results);
    progress(Math.min(from + IMPORT_CHUNK_ROWS, rows.length), rows.length);
  }
  return results;
}

/** The courses an import may enrol people in (the first hundred by topic). */
export const useImportCourses = () =>
  useQuery({
    queryKey: ['imports', 'courses'],
    queryFn: () => api<z.infer<typeof CourseList>>('/api/admin/courses?page=1&pageSize=100&sort=topic&order=asc'),
  });

/** A template to fill in: the columns, and one example row (Excel opens UTF-8 with its BOM). */
export function templateHref(): string {
  const example = [
    'somsri01',
    'นางสาว',
    'สมศรี ใจดี',
    '1101700000001',
    '0812345678',
    'somsri@example.com',
    '1 ถนนสุขุมวิท',
    'กรุงเทพมหานคร',
    'วัฒนา',
    'คลองเตยเหนือ',
    '10110',
  ];
  const csv = `\ufeff${IMPORT_COLUMNS.join(',')}\r\n${example.join(',')}\r\n`;
  return `data:text/csv;charset=utf-8,${encodeURIComponent(csv)}`;
}
