import { Buffer } from 'node:buffer';

/**
 * Values in PostgreSQL's text input forms, written here rather than by the drivers because they
 * are on a rebuild's hot path: node-postgres escapes each array element with two regular
 * expressions and writes dates in local time field by field; PGlite does the same and writes a
 * bytea's hex one byte at a time (pglite-bind.ts, copy-text.ts, table.ts's insertRows).
 */

/**
 * A value as its column's input takes it: a string as it is, a boolean as t or f, a number as
 * digits, a date in ISO form, bytes in bytea's hex form, any other object as JSON (json, jsonb).
 */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return byteaText(value);
  return JSON.stringify(value);
}

/** bytea's hex form. */
export const byteaText = (bytes: Uint8Array) =>
  `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;

/**
 * An array's text form, every element but a number or a boolean quoted (a backslash and a double
 * quote escaped inside), null (or undefined) as NULL, an array in it as a dimension more:
 * '{"a","b \\"c\\"",null,1}'.
 */
export function arrayText(values: readonly unknown[], element: (value: unknown) => string = valueText): string {
  if (values.length === 0) return '{}';
  // Numbers (a registration's search index is about 150 of them) joined at once: written one by
  // one, the text is a chain of pieces that every later look at it flattens again.
  if (element === valueText && values.every(isNumber)) return `{${values.join(',')}}`;
  let text = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) text += ',';
    const value = values[i];
    if (value === null || value === undefined) text += 'null';
    else if (Array.isArray(value)) text += arrayText(value, element);
    // The bare forms are valueText's own: a caller's other element writer (pglite-bind.ts) is quoted.
    else if (element === valueText) text += elementText(value);
    else text += quoted(element(value));
  }
  return `${text}}`;
}

const isNumber = (value: unknown) => typeof value === 'number' || typeof value === 'bigint';

/**
 * An element in valueText's form, quoted only as it must be: a number or a boolean never needs
 * quotes, and bytea's hex only its leading backslash escaped. A registration's row held a search
 * index of about 150 numbers, each quoted, and that array's text quoted again as an element of
 * the batch's, its 300 quotes escaped one by one: written bare, the accounts projection costs a
 * rebuild's thread a fifth less (docs/performance.md, machine M).
 */
function elementText(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  // bytea's hex form with its leading backslash escaped: nothing else in it needs escaping.
  if (value instanceof Uint8Array) return `"\\${byteaText(value)}"`;
  return quoted(valueText(value));
}

const quoted = (text: string) =>
  text.includes('"') || text.includes('\\') ? `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"` : `"${text}"`;
