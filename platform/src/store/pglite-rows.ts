import { Buffer } from 'node:buffer';
import { protocol, types } from '@electric-sql/pglite';
import { BYTEA } from './pglite-bind.ts';

/**
 * A kept statement's rows read straight from the bytes PostgreSQL answers its Bind, Execute and
 * Sync with (pglite-statements.ts). PGlite's own reading makes a message object of each row,
 * copies every field into an ArrayBuffer of its own and decodes it, then builds each row with
 * Object.fromEntries; a bytea came as hex text, decoded again. On a page of sealed registrations
 * (a dozen bytea columns) that was most of the embedded database's thread: the statement itself
 * ran in a tenth of the time. Here a bytea column is asked for in binary format (`resultFormats`)
 * and sliced out as it is, every other column decoded from UTF-8 and parsed as PGlite would
 * (`types.parseType` with the same parsers), the row built field by field.
 */

/** A column of a statement's row description. */
export interface Column {
  name: string;
  dataTypeID: number;
}

type Parsers = Parameters<typeof types.parseType>[2];

/** The Bind's result format of each column: binary for bytea, text for the rest; [] if none is bytea. */
export const resultFormats = (columns: readonly Column[]): number[] =>
  columns.some((column) => column.dataTypeID === BYTEA)
    ? columns.map((column) => (column.dataTypeID === BYTEA ? 1 : 0))
    : [];

const DATA_ROW = 0x44; // D
const ERROR = 0x45; // E

/**
 * The rows of `answer`, each column in the format the Bind asked for (`formats`, from
 * `resultFormats`), or the statement's error as PGlite would throw it (its DatabaseError, with
 * code, detail and position). Every other message (BindComplete, CloseComplete, CommandComplete,
 * ReadyForQuery, a notice or a notification nobody here listens to through PGlite) carries
 * nothing a caller reads.
 */
export function readRows(
  answer: Uint8Array,
  columns: readonly Column[] | null,
  formats: readonly number[],
  parsers: Parsers,
): unknown[] {
  const bytes = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
  const rows: unknown[] = [];
  let at = 0;
  while (at + 5 <= bytes.length) {
    const code = bytes[at]!;
    const length = bytes.readInt32BE(at + 1);
    const end = at + 1 + length;
    if (code === ERROR) throw databaseError(answer.subarray(at, end));
    if (code === DATA_ROW && columns) {
      const count = bytes.readInt16BE(at + 5);
      const row: Record<string, unknown> = {};
      let field = at + 7;
      for (let i = 0; i < count; i++) {
        const size = bytes.readInt32BE(field);
        field += 4;
        const column = columns[i]!;
        if (size < 0) row[column.name] = null;
        else if (formats[i] === 1) row[column.name] = answer.subarray(field, field + size);
        else
          row[column.name] = types.parseType(bytes.toString('utf8', field, field + size), column.dataTypeID, parsers);
        if (size > 0) field += size;
      }
      rows.push(row);
    }
    at = end;
  }
  return rows;
}

/** An ErrorResponse read by PGlite's protocol parser: the very error its own `query` throws. */
function databaseError(message: Uint8Array): Error {
  let error: Error | undefined;
  new protocol.Parser().parse(message, (parsed) => {
    if (parsed instanceof Error) error ??= parsed;
  });
  return error ?? new Error('the embedded database answered an error it could not read');
}
