import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
});
