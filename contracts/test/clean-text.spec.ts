import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanText } from '../src/rules/text.ts';

/** What cleanText is defined to do to a string: its two replacements, always made. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const cleaned = (text: string) => text.replace(CONTROLS, '').replace(LONE, '\uFFFD');

/** Strings of any code units (lone surrogates, controls), Thai, marks and emoji among them. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.constantFrom('a', 'ก', '\u0e31', '\u200f', '\u0000', '\u0085', '\ud83d', '\ude00', '😀', '\t', '\n'),
  }),
);

describe('text cleaned for the read models', () => {
  it('drops control characters and replaces lone surrogates, in any string (property)', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(cleanText(text)).toBe(cleaned(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('cleans every key and value of objects and arrays, and gives back what needed nothing as it was', () => {
    fc.assert(
      fc.property(
        fc.dictionary(anyText, fc.oneof(anyText, fc.array(anyText), fc.integer(), fc.constant(null))),
        (value) => {
          const result = cleanText(value);
          const expected = Object.fromEntries(
            Object.entries(value).map(([key, item]) => [
              cleaned(key),
              typeof item === 'string' ? cleaned(item) : Array.isArray(item) ? item.map(cleaned) : item,
            ]),
          );
          expect(result).toEqual(expected);
          if (JSON.stringify(expected) === JSON.stringify(value)) expect(result).toBe(value);
        },
      ),
      { numRuns: 500 },
    );
    const nested = { name: 'สมชาย\u0000', contacts: ['a\ud800', 'ok'], age: 30 };
    expect(cleanText(nested)).toEqual({ name: 'สมชาย', contacts: ['a\ufffd', 'ok'], age: 30 });
    expect(nested.name).toBe('สมชาย\u0000'); // the value given is never changed
  });
});
