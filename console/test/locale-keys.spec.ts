import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../src/locales/en.ts';
import { th } from '../src/locales/th.ts';

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );

/**
 * Every word the console asks for by a literal key exists in both languages: a missing key
 * shows the key itself to the user (found once: the note on rounds that have started).
 */
describe('the console words', () => {
  it('has every literal t() key in English and Thai', () => {
    const used = new Set<string>();
    for (const file of sources(join(import.meta.dirname, '../src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([a-zA-Z][\w.-]*)'/g)) used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(100);
    // A plural is asked for by its stem and kept as `_one` and `_other` (i18next's plural rules).
    const has = (words: object, key: string) => key in words || (`${key}_one` in words && `${key}_other` in words);
    const missing = [...used].filter((key) => !has(en, key) || !has(th, key)).sort();
    expect(missing).toEqual([]);
  });
});
