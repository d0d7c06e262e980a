import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The suite's helpers leave nothing behind in the temporary folder. */
describe('a test run’s uploads folders', () => {
  it('are removed when the process that made them ends, files and all', () => {
    const script = `
      import { existsSync, writeFileSync } from 'node:fs';
      import { join } from 'node:path';
      import { testUploadsDir } from '@portal/platform/testing/databases';
      const dirs = [testUploadsDir(), testUploadsDir()];
      writeFileSync(join(dirs[0], 'photo.jpg'), 'not really a photo');
      console.log(JSON.stringify(dirs.map((dir) => [dir, existsSync(dir)])));
    `;
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    const made = JSON.parse(output) as [string, boolean][];
    expect(made.map(([, existed]) => existed)).toEqual([true, true]);
    expect(made.map(([dir]) => existsSync(dir))).toEqual([false, false]);
  });

  it('are removed after each test file that made them, though vitest ends its workers without exit handlers', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'uploads-dir-test-'));
    try {
      const foldersFile = join(scratch, 'folders.json');
      const vitest = resolve(import.meta.dirname, '../../node_modules/vitest/vitest.mjs');
      const config = resolve(import.meta.dirname, 'fixtures/uploads-dir/vitest.config.ts');
      execFileSync(process.execPath, [vitest, 'run', '--config', config], {
        env: { ...process.env, FOLDERS_FILE: foldersFile },
        stdio: 'pipe',
      });
      const dirs = JSON.parse(readFileSync(foldersFile, 'utf8')) as string[];
      expect(dirs).toHaveLength(2);
      expect(dirs.map((dir) => existsSync(dir))).toEqual([false, false]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
