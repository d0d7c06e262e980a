import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
// @ts-expect-error: plain JavaScript (it runs before anything is built), without declarations
import { buildConsole, consoleStale } from '../scripts/console-build.mjs';

const root = resolve(import.meta.dirname, '../..');
const dist = join(root, 'console/dist');

/**
 * What is missing from console/dist while its index.html is there (which is what tells `npm start`
 * the console is built): the files the page loads, and the service worker with its manifest.
 */
function missingFromBuild(): string[] {
  let page: string;
  try {
    page = readFileSync(join(dist, 'index.html'), 'utf8');
  } catch {
    return []; // no build: a start builds one
  }
  const named = [...page.matchAll(/(?:src|href)="\/([^"]+\.(?:js|css|webmanifest))"/g)].map((m) => m[1]!);
  return [...named, 'sw.js', 'registerSW.js', 'manifest.webmanifest'].filter((file) => !existsSync(join(dist, file)));
}

describe('the console build (deploy/scripts/console-build.mjs)', () => {
  it('puts a build in place whole, even with two at once: console/dist is never a page without its files', async () => {
    expect(missingFromBuild()).toEqual([]);
    // This process's builds' folders (other test files' starts may be building theirs).
    const ours = (name: string) => name.startsWith('dist.building-') && name.includes(`-${process.pid}-`);
    // Left by builds cut short, whose process ids are taken since (process 1 always runs): an hour
    // old, removed by the next build; made a moment ago (maybe a build still running), kept.
    const leftover = join(root, 'console', 'dist.building-1-0-1');
    const recent = join(root, 'console', 'dist.building-1-0-2');
    for (const folder of [leftover, recent]) mkdirSync(folder, { recursive: true });
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000);
    utimesSync(leftover, twoHoursAgo, twoHoursAgo);
    const seen = new Set<string>();
    const folders = new Set<string>();
    const watch = setInterval(() => {
      missingFromBuild().forEach((file) => seen.add(file));
      readdirSync(join(root, 'console'))
        .filter(ours)
        .forEach((name) => folders.add(name));
    }, 5);
    // Both started in the same millisecond, as a fast machine may start them.
    const now = vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    const both = [buildConsole(), buildConsole()];
    now.mockRestore();
    try {
      expect(await Promise.all(both)).toEqual([0, 0]);
    } finally {
      clearInterval(watch);
    }
    expect([...seen]).toEqual([]);
    expect(missingFromBuild()).toEqual([]);
    expect(consoleStale()).toBe(false);
    // Each build had a folder of its own (they once shared one, named by the millisecond).
    expect(folders.size).toBe(2);
    // Nothing of either build is left beside it.
    expect(readdirSync(join(root, 'console')).filter(ours)).toEqual([]);
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    rmSync(recent, { recursive: true });
  }, 180_000);
});
