import { parse } from 'csv-parse/sync';

/**
 * A downloaded CSV read as a spreadsheet would read it: the byte-order mark that tells Excel the
 * file is UTF-8 (so Thai shows) must be there; then the header row and one record per row, parsed
 * by a real CSV parser (quotes, commas and line breaks inside fields included).
 */
export function openCsv(body: string): { header: string[]; rows: string[][] } {
  if (!body.startsWith('\uFEFF')) throw new Error('the CSV has no UTF-8 byte-order mark: Excel would garble Thai');
  const [header, ...rows] = parse(body.slice(1), { relax_column_count: false }) as string[][];
  if (!header) throw new Error('the CSV is empty');
  return { header, rows };
}
