import { parse } from 'csv-parse/sync';
import XLSX from 'xlsx';

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

/** A cell as a spreadsheet holds it after opening the file: its type and value, and a formula if it took one. */
export interface SheetCell {
  type: 's' | 'n' | 'b' | 'd' | 'e' | 'z';
  value: unknown;
  formula?: string;
}

/**
 * A downloaded CSV opened the way Excel opens one, by SheetJS's CSV reader: digits become
 * numbers (leading zeros lost), date-like text becomes a date serial, `="..."` becomes text, and
 * a cell starting with = would be a formula. Answers the header and each row's cells by column.
 */
export function openAsSpreadsheet(body: string): Record<string, SheetCell>[] {
  const book = XLSX.read(body.replace(/^\uFEFF/, ''), { type: 'string' });
  const sheet = book.Sheets[book.SheetNames[0]!]!;
  const range = XLSX.utils.decode_range(sheet['!ref']!);
  const cell = (r: number, c: number) => sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined;
  const header: string[] = [];
  for (let c = range.s.c; c <= range.e.c; c++) header.push(String(cell(0, c)?.v ?? ''));
  const rows: Record<string, SheetCell>[] = [];
  for (let r = 1; r <= range.e.r; r++) {
    const row: Record<string, SheetCell> = {};
    header.forEach((name, c) => {
      const found = cell(r, c);
      row[name] = { type: found?.t ?? 'z', value: found?.v ?? '', ...(found?.f ? { formula: found.f } : {}) };
    });
    rows.push(row);
  }
  return rows;
}

/** A spreadsheet's date serial as the local date and time it shows (`2026-11-23 17:05:09`). */
export function serialToLocal(serial: number): string {
  const parts = XLSX.SSF.parse_date_code(serial);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${parts.y}-${pad(parts.m)}-${pad(parts.d)} ${pad(parts.H)}:${pad(parts.M)}:${pad(Math.round(parts.S))}`;
}

/** A moment as the exports write it: the local date and time in `zone` (Thailand's by default). */
export const exportedMoment = (iso: string | null | undefined, zone = 'Asia/Bangkok') =>
  iso
    ? new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'medium' }).format(
        new Date(iso),
      )
    : '';

/** Digits as the exports write them so Excel keeps them as text: `="0812345678"`. */
export const exportedDigits = (digits: string) => `="${digits}"`;
