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
