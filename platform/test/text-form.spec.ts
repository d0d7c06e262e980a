import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlDatabase } from '../src/store/sql.ts';
import { arrayText, valueText } from '../src/store/text-form.ts';
import { testDatabases } from '../src/testing/databases.ts';

/**
 * Arrays in their text form (text-form.ts) as the rebuild's gathered inserts send them: numbers
 * and booleans unquoted, bytea's hex with only its backslash escaped. Each database must read
 * back exactly the values given, element by element, and the same array as the general form
 * with every element quoted.
 */
describe.each(testDatabases())('arrays in their text form on $name', (database) => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
  });
  afterAll(() => drop());

  /** Every element quoted, a backslash and a double quote escaped: the array input's general form. */
  const quotedEverywhere = (values: readonly unknown[]): string =>
    `{${values
      .map((value) =>
        value === null
          ? 'null'
          : Array.isArray(value)
            ? quotedEverywhere(value)
            : `"${valueText(value).replace(/[\\"]/g, (c) => `\\${c}`)}"`,
      )
      .join(',')}}`;

  /** The elements as the database reads them, each as text (null as null), in order. */
  const readBack = async (type: string, values: readonly unknown[]) => {
    const [row] = await db.query<{ elements: (string | null)[] | null; same: boolean }>(
      `SELECT (SELECT array_agg(${type === 'bytea' ? `encode(x, 'hex')` : 'x::text'} ORDER BY i)
                 FROM unnest($1::${type}[]) WITH ORDINALITY AS u (x, i)) AS elements,
              $1::${type}[] IS NOT DISTINCT FROM $2::${type}[] AS same`,
      [arrayText(values), quotedEverywhere(values)],
    );
    return { elements: row!.elements ?? [], same: row!.same };
  };

  it('reads back every bytea as given', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(fc.uint8Array({ maxLength: 80 })), { maxLength: 12 }), async (values) => {
        const { elements, same } = await readBack('bytea', values);
        expect(elements).toEqual(values.map((v) => (v === null ? null : Buffer.from(v).toString('hex'))));
        expect(same).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('reads back every integer and boolean as given, and every double as the general form gives it', async () => {
    const int8 = fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(int8), { maxLength: 12 }),
        fc.array(fc.option(fc.boolean()), { maxLength: 12 }),
        fc.array(fc.option(fc.double()), { maxLength: 12 }),
        async (integers, booleans, doubles) => {
          const read = await readBack('int8', integers);
          expect(read.elements).toEqual(integers.map((v) => (v === null ? null : String(v))));
          expect(read.same).toBe(true);
          const truths = await readBack('bool', booleans);
          expect(truths.elements).toEqual(booleans.map((v) => (v === null ? null : String(v))));
          expect((await readBack('float8', doubles)).same).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads an array of arrays of numbers (a search index per row) and of texts as the general form', async () => {
    // What a text column can hold: no NUL, no lone surrogate (each refused before this point).
    const held = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((text) => !text.includes('\0'));
    const texts = fc.oneof(held, fc.constantFrom('"', '\\', 'NULL', '{a,b}', ' ', 'ก่ำ'));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.integer(), { minLength: 3, maxLength: 3 }), { maxLength: 5 }),
        fc.array(fc.option(texts), { maxLength: 8 }),
        async (rows, strings) => {
          expect((await readBack('int4', rows)).same).toBe(true);
          const read = await readBack('text', strings);
          expect(read.elements).toEqual(strings);
          expect(read.same).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('writes numbers and booleans bare and escapes only the backslash of a bytea', () => {
    expect(arrayText([Buffer.from([0, 255]), 5, -2n, true, null, [1, 2]])).toBe('{"\\\\x00ff",5,-2,t,null,{1,2}}');
  });
});
