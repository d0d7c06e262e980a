import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const cache = join(root, 'node_modules/.cache/portal-server');
const folderOf = (entry: string): string => resolve(dirname(entry), '../..');

/** The id of a process that has ended. */
const endedPid = (): number => spawnSync(process.execPath, ['-e', '']).pid ?? 0;

/** What server-build.mjs's function `name` answers to `args` (it runs before anything is built: plain JavaScript). */
const recipe = (name: string, ...args: unknown[]): string =>
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const recipe = await import('./deploy/scripts/server-build.mjs');
       console.log(await recipe[${JSON.stringify(name)}](...${JSON.stringify(args)}))`,
    ],
    { cwd: root, encoding: 'utf8' },
  ).trim();

/** The bundled portal's entry as `npm start` finds it, built when stale. */
const serverEntry = (): string => recipe('serverEntry');

/** `npm start` runs the portal's code bundled; a developer's change must never be left out of it. */
describe("npm start's bundle of the portal's code", () => {
  it('is made once, reused while its sources are unchanged, and made again when one changes', () => {
    const first = serverEntry();
    expect(first).toMatch(/node_modules\/\.cache\/portal-server\/[^/]+\/deploy\/src\/embedded\.js$/);
    expect(serverEntry()).toBe(first);
    const keyOf = (entry: string) => readFileSync(join(folderOf(entry), 'content-key'), 'utf8');
    const firstKey = keyOf(first); // read now: an earlier bundle no portal runs from may go once another is made

    // A module the portal imports, changed (its time is what a save or a checkout moves).
    const now = new Date();
    utimesSync(join(root, 'command-api/src/app.ts'), now, now);
    const second = serverEntry();
    expect(second).not.toBe(first);
    expect(existsSync(second)).toBe(true);
    expect(serverEntry()).toBe(second);
    // Made from the same contents: what was made from the code (the schema snapshot) is found again.
    expect(keyOf(second)).toMatch(/^[0-9a-f]{32}$/);
    expect(keyOf(second)).toBe(firstKey);

    // So is a change to how a workspace names its files.
    utimesSync(join(root, 'platform/package.json'), new Date(), new Date());
    expect(serverEntry()).not.toBe(second);
  });

  it('keeps an earlier bundle while a portal started from it runs, however long ago, and removes it after', () => {
    const entry = serverEntry();
    const used = folderOf(entry);
    // This test's process plays a portal started from it an hour ago (as start.mjs marks one).
    recipe('markInUse', entry, process.pid);
    const anHourAgo = new Date(Date.now() - 60 * 60_000);
    utimesSync(used, anHourAgo, anHourAgo);
    // One a portal that has ended ran from, an hour ago.
    const ended = join(cache, `ended-${process.pid}`);
    mkdirSync(join(ended, 'in-use'), { recursive: true });
    writeFileSync(join(ended, 'in-use', String(endedPid())), '');
    utimesSync(ended, anHourAgo, anHourAgo);
    // And one made a minute ago, which a portal may be about to start from.
    const recent = join(cache, `recent-${process.pid}`);
    mkdirSync(recent, { recursive: true });

    utimesSync(join(root, 'command-api/src/app.ts'), new Date(), new Date());
    expect(folderOf(serverEntry())).not.toBe(used);
    expect(existsSync(join(used, 'deploy/src/embedded.js'))).toBe(true);
    expect(existsSync(ended)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    rmSync(recent, { recursive: true });
    rmSync(join(used, 'in-use', String(process.pid)));
  });

  it("keeps every module's own location, so each finds its files where its source is", () => {
    const entry = serverEntry();
    const folder = resolve(dirname(entry), '../..');
    const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'));
    expect(files.length).toBeGreaterThan(4);
    for (const name of files) {
      expect(readFileSync(join(folder, name), 'utf8'), name).not.toMatch(/import\.meta\.(url|dirname|filename)/);
    }
    // The console's build, found from the portal's source folder (deploy/src/embedded.ts).
    expect(readFileSync(entry, 'utf8')).toContain(JSON.stringify(join(root, 'deploy/src')));
  });
});
