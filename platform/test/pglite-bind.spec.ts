import { PGlite } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../src/store/pglite-bind.ts';

/**
 * The embedded database's parameters are written by pglite-bind.ts, not by PGlite's serializers:
 * for every type it knows, the same text as PGlite's, whatever the value (the serializer PGlite
 * would use is only the fallback for the rest).
 */
describe("the embedded database's parameters", () => {
  let db: PGlite;
  beforeAll(async () => {
    db = new PGlite();
    await db.waitReady;
  });
  afterAll(() => db.close());

  const pglites = (type: number, value: unknown) => {
    const serialize = db.serializers[type];
    return serialize ? serialize(value) : String(value);
  };
  const ours = (type: number, value: unknown) => textOf(type, value, (t) => db.serializers[t] ?? String);
  const text = fc.string({ unit: 'binary', maxLength: 40 });
  const awkward = fc.constantFrom('', 'null', 'NULL', '"', '\\', '\\"', '{a,b}', ' x ', 'ก่ำ', '\u200f', 'é\udc00');
  const texts = fc.oneof(text, awkward);
  const time = fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true });
  const bytes = fc.uint8Array({ maxLength: 64 });
  // An element of a json[] that is itself an array would be read as a dimension more, by both.
  const jsonElement = fc.oneof(fc.json(), fc.jsonValue()).filter((v) => !Array.isArray(v));
  const values: [string, number, fc.Arbitrary<unknown>][] = [
    ['text', 25, texts],
    ['text[]', 1009, fc.array(fc.option(texts), { maxLength: 8 })],
    ['text[][]', 1009, fc.array(fc.array(fc.option(texts), { minLength: 2, maxLength: 2 }), { maxLength: 4 })],
    ['varchar', 1043, texts],
    ['int8', 20, fc.oneof(fc.maxSafeInteger(), fc.bigInt())],
    ['int4[]', 1007, fc.array(fc.option(fc.integer()), { maxLength: 8 })],
    ['int8[]', 1016, fc.array(fc.maxSafeInteger(), { maxLength: 8 })],
    ['float8', 701, fc.double({ noNaN: true })],
    ['bool', 16, fc.oneof(fc.boolean(), fc.constantFrom('yes', 'off', 'true', 0, 1))],
    ['bool[]', 1000, fc.array(fc.option(fc.boolean()), { maxLength: 8 })],
    ['bytea', 17, bytes],
    ['bytea[]', 1001, fc.array(fc.option(bytes), { maxLength: 4 })],
    [
      'timestamptz',
      1184,
      fc.oneof(
        time,
        time.map((t) => t.toISOString()),
        fc.integer({ min: 0 }),
      ),
    ],
    [
      'timestamptz[]',
      1185,
      fc.array(
        fc.option(
          fc.oneof(
            time,
            time.map((t) => t.toISOString()),
          ),
        ),
        { maxLength: 6 },
      ),
    ],
    ['jsonb', 3802, fc.oneof(fc.jsonValue(), fc.json())],
    ['json', 114, fc.oneof(fc.jsonValue(), fc.json())],
    ['numeric', 1700, fc.oneof(fc.integer(), fc.constant('1.50'))],
    ['xid8', 5069, fc.oneof(fc.maxSafeInteger(), fc.nat().map(String))],
    ['bpchar', 1042, texts],
    ['int2', 21, fc.integer({ min: -32768, max: 32767 })],
    ['int4', 23, fc.oneof(fc.integer(), fc.constant('7'))],
    ['oid', 26, fc.nat()],
    ['float4', 700, fc.float({ noNaN: true })],
    [
      'date',
      1082,
      fc.oneof(
        time,
        time.map((t) => t.toISOString().slice(0, 10)),
      ),
    ],
    [
      'timestamp',
      1114,
      fc.oneof(
        time,
        time.map((t) => t.toISOString()),
      ),
    ],
    ['varchar[]', 1015, fc.array(fc.option(texts), { maxLength: 6 })],
    ['bpchar[]', 1014, fc.array(fc.option(texts), { maxLength: 6 })],
    ['int2[]', 1005, fc.array(fc.integer({ min: -32768, max: 32767 }), { maxLength: 6 })],
    ['oid[]', 1028, fc.array(fc.nat(), { maxLength: 6 })],
    ['float4[]', 1021, fc.array(fc.float({ noNaN: true }), { maxLength: 6 })],
    ['float8[]', 1022, fc.array(fc.double({ noNaN: true }), { maxLength: 6 })],
    ['numeric[]', 1231, fc.array(fc.oneof(fc.integer(), fc.constant('2.5')), { maxLength: 6 })],
    ['date[]', 1182, fc.array(fc.option(time), { maxLength: 6 })],
    ['timestamp[]', 1115, fc.array(fc.option(time), { maxLength: 6 })],
    ['json[]', 199, fc.array(fc.option(jsonElement), { maxLength: 4 })],
    ['jsonb[]', 3807, fc.array(fc.option(jsonElement), { maxLength: 4 })],
    ['xid8[]', 271, fc.array(fc.maxSafeInteger(), { maxLength: 6 })],
    ['an array as its text', 1009, fc.constantFrom('{}', '{"a","b"}', '{null}')],
  ];

  it.each(values)('writes %s as PGlite does', (_, type, value) => {
    fc.assert(
      fc.property(value, (v) => {
        expect(ours(type, v)).toBe(pglites(type, v));
      }),
      { numRuns: 300 },
    );
  });
});
