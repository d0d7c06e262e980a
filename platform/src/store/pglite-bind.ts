import { Buffer } from 'node:buffer';
import { arrayText, byteaText } from './text-form.ts';

/**
 * A kept statement's Bind, Execute and Sync as one message for PGlite (pglite-statements.ts),
 * every parameter in PostgreSQL's text format, as PGlite's own serializers write them. Made
 * here because PGlite's make a hex string of a bytea byte by byte, run two regular expressions
 * over every element of an array, measure each string's UTF-8 length twice in JavaScript and copy
 * the message four times: in a rebuild that was a tenth of the embedded database's thread.
 * Types not listed fall back to PGlite's serializer for the type (`fallback`).
 */

/** PostgreSQL's type OIDs, as parameter descriptions give them. */
const BOOL = 16;
export const BYTEA = 17;
const JSON_TYPE = 114;
const JSONB = 3802;
const TEXT_LIKE = new Set([25, 1042, 1043]); // text, bpchar, varchar
const NUMBERS = new Set([20, 21, 23, 26, 700, 701, 1700, 5069, 28]); // int8, int2, int4, oid, float4, float8, numeric, xid8, xid
const TIMES = new Set([1082, 1114, 1184]); // date, timestamp, timestamptz

/** Array type OID -> its element's, for the arrays the portal passes. */
const ELEMENT_OF = new Map<number, number>([
  [1000, BOOL],
  [1001, BYTEA],
  [1005, 21],
  [1007, 23],
  [1009, 25],
  [1014, 1042],
  [1015, 1043],
  [1016, 20],
  [1021, 700],
  [1022, 701],
  [1028, 26],
  [1182, 1082],
  [1115, 1114],
  [1185, 1184],
  [1231, 1700],
  [199, JSON_TYPE],
  [3807, JSONB],
  [271, 5069],
]);

type Serialize = (value: unknown) => string;

/** A value in text format by its type, or undefined where this module does not know the type. */
function scalar(type: number, value: unknown): string | undefined {
  if (TEXT_LIKE.has(type)) return value instanceof Date ? value.toISOString() : String(value);
  if (NUMBERS.has(type)) return typeof value === 'number' || typeof value === 'bigint' ? String(value) : undefined;
  if (type === BOOL) return typeof value === 'boolean' ? (value ? 't' : 'f') : undefined;
  if (type === BYTEA) {
    if (!(value instanceof Uint8Array)) return undefined;
    return byteaText(value);
  }
  if (type === JSON_TYPE || type === JSONB) {
    if (typeof value === 'string') return value;
    return undefined; // PGlite's: JSON.stringify with bigints as strings
  }
  if (TIMES.has(type)) {
    if (typeof value === 'string') return value;
    if (value instanceof Date) return value.toISOString();
    return undefined;
  }
  return undefined;
}

/**
 * A parameter in text format for a parameter of `type`: this module's where it knows the type
 * and value, `fallback` (PGlite's serializer for the type, or String) otherwise.
 */
export function textOf(type: number, value: unknown, fallback: (type: number) => Serialize): string {
  const element = ELEMENT_OF.get(type);
  // An array given in its text form already (insertRows).
  if (element !== undefined && typeof value === 'string') return value;
  if (element !== undefined && Array.isArray(value)) {
    const serialize = fallback(element);
    return arrayText(value, (item) => scalar(element, item) ?? serialize(item));
  }
  return scalar(type, value) ?? fallback(type)(value);
}

const EXECUTE_AND_SYNC = Buffer.from([0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0x53, 0, 0, 0, 4]);

/**
 * Bind (unnamed portal, the statement `name`, every parameter in text format, each result column
 * in the format `resultFormats` gives, all in text when it is empty), Execute (every row) and
 * Sync, preceded by `before` (Close messages).
 */
export function bindMessage(
  name: string,
  values: readonly (string | null)[],
  before: readonly Uint8Array[] = [],
  resultFormats: readonly number[] = [],
) {
  const nameLength = Buffer.byteLength(name);
  // length, portal "", name, formats (0), count, result formats' count and each
  let length = 4 + 1 + nameLength + 1 + 2 + 2 + 2 + 2 * resultFormats.length;
  const lengths = values.map((value) => (value === null ? -1 : Buffer.byteLength(value)));
  for (const size of lengths) length += 4 + Math.max(size, 0);
  const prefix = before.reduce((sum, part) => sum + part.length, 0);
  const message = Buffer.allocUnsafe(prefix + 1 + length + EXECUTE_AND_SYNC.length);
  let at = 0;
  for (const part of before) {
    message.set(part, at);
    at += part.length;
  }
  at = message.writeUInt8(0x42, at); // 'B'
  at = message.writeInt32BE(length, at);
  at = message.writeUInt8(0, at); // the unnamed portal
  at += message.write(name, at);
  at = message.writeUInt8(0, at);
  at = message.writeInt16BE(0, at); // every parameter in text format
  at = message.writeInt16BE(values.length, at);
  for (let i = 0; i < values.length; i++) {
    at = message.writeInt32BE(lengths[i]!, at);
    if (lengths[i]! > 0) at += message.write(values[i]!, at);
  }
  at = message.writeInt16BE(resultFormats.length, at);
  for (const format of resultFormats) at = message.writeInt16BE(format, at);
  message.set(EXECUTE_AND_SYNC, at);
  return message;
}
