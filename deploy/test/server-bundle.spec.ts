import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, utimesSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** The bundled portal's entry as `npm start` finds it (deploy/scripts/server-build.mjs), built when stale. */
const serverEntry = (): string =>
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "console.log(await (await import('./deploy/scripts/server-build.mjs')).serverEntry())",
    ],
    { cwd: root, encoding: 'utf8' },
  ).trim();

/** `npm start` runs the portal's code bundled; a developer's change must never be left out of it. */
describe("npm start's bundle of the portal's code", () => {
  it('is made once, reused while its sources are unchanged, and made again when one changes', () => {
    const first = serverEntry();
    expect(first).toMatch(/node_modules\/\.cache\/portal-server\/[^/]+\/deploy\/src\/embedded\.js$/);
    expect(serverEntry()).toBe(first);

    // A module the portal imports, changed (its time is what a save or a checkout moves).
    const now = new Date();
    utimesSync(join(root, 'command-api/src/app.ts'), now, now);
    const second = serverEntry();
    expect(second).not.toBe(first);
    expect(existsSync(second)).toBe(true);
    // The earlier bundle is kept for a while: a portal started from it may still start a thread.
    expect(existsSync(first)).toBe(true);
    expect(serverEntry()).toBe(second);

    // So is a change to how a workspace names its files.
    utimesSync(join(root, 'platform/package.json'), new Date(), new Date());
    expect(serverEntry()).not.toBe(second);
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
