import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
let removedAtExit = false;

/** Removes every folder `testUploadsDir` made in this process so far. */
export function removeTestUploadsDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A fresh folder for uploaded files, for one test run, removed after the test file (the suite's
 * setup, vitest-setup.ts) or when the process ends, for a benchmark (found: every run of the
 * suite left some hundred of them in the temporary folder; vitest ends its workers without
 * running their exit handlers).
 */
export function testUploadsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-uploads-'));
  made.push(dir);
  if (!removedAtExit) {
    removedAtExit = true;
    process.once('exit', removeTestUploadsDirs);
  }
  return dir;
}
