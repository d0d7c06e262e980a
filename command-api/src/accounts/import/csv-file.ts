import { parse } from 'csv-parse/sync';
import {
  IMPORT_COLUMNS,
  IMPORT_MAX_ROWS,
  type ImportColumn,
  REQUIRED_IMPORT_COLUMNS,
} from '@portal/contracts/rules/import';
import type { MessageKey } from '@portal/contracts/rules/messages';

export type RawRow = { line: number } & Partial<Record<ImportColumn, string>>;

/**
 * Reads an import file (issue 23): UTF-8, a BOM or not (Excel's "CSV UTF-8" writes one), commas
 * or semicolons, a header row naming IMPORT_COLUMNS (any case and order; others are ignored).
 * `line` is the row's line in the file as a spreadsheet numbers it (the header is line 1).
 */
export function readImportFile(csv: string): { rows: RawRow[] } | { refused: MessageKey } {
  const text = csv.replace(/^\ufeff/, '');
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      delimiter: [',', ';'],
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
    }) as unknown as typeof records;
  } catch {
    return { refused: 'import.notCsv' };
  }
  const [header, ...body] = records;
  if (!header) return { refused: 'import.empty' };
  const byName = new Map(IMPORT_COLUMNS.map((column) => [column.toLowerCase(), column]));
  const columns = header.record.map((name) => byName.get(name.trim().toLowerCase()) ?? null);
  if (!REQUIRED_IMPORT_COLUMNS.every((column) => columns.includes(column))) return { refused: 'import.missingColumns' };
  if (body.length === 0) return { refused: 'import.empty' };
  if (body.length > IMPORT_MAX_ROWS) return { refused: 'import.tooManyRows' };
  const rows = body.map(({ record, info }) => {
    const row: RawRow = { line: info.lines };
    columns.forEach((column, i) => {
      if (column) row[column] = record[i] ?? '';
    });
    return row;
  });
  return { rows };
}
