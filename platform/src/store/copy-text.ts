import { valueText } from './text-form.ts';

/**
 * Rows in the text format of PostgreSQL's COPY: one line a row, columns apart by a tab, NULL as
 * `\N`, and in a value the backslash, newline, carriage return and tab written as escapes (the
 * only characters the format gives a meaning to), each value in its column's text form
 * (text-form.ts). An array column's value is given already in PostgreSQL's array text (table.ts turns arrays into
 * it, as for an INSERT). csv-stringify (the exports') could write COPY's CSV format instead, but
 * it took 1.2 to 2 times as long for 100,000 attempt rows, on the thread a rebuild waits for.
 */
export function copyText(rows: readonly (readonly unknown[])[]): string {
  let text = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      if (i > 0) text += '\t';
      text += copyValue(row[i]);
    }
    text += '\n';
  }
  return text;
}

const ESCAPED = /[\\\n\r\t]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  return valueText(value).replace(ESCAPED, (c) => ESCAPES[c]!);
}
