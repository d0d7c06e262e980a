import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlockReadModels } from '@portal/platform/read-models/sealed-columns';
import { createEventStore } from '@portal/platform/store/event-store';
import { openDatabase } from '@portal/platform/store/open';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import { TEST_DATA_KEY_ENV } from '@portal/platform/testing/data-keys';
import { buildFromLog, readModelRows } from '../src/testing/read-model-copies.ts';
import { step, story } from './course-stories.ts';

const root = resolve(import.meta.dirname, '../..');

/**
 * `npm run rebuild` as a person runs it (its script, projector/src/rebuild-cli.ts, in a Node of
 * its own) on an embedded database: the tests of rebuild-beside.spec.ts call what it calls, but
 * only running it finds what Node itself refuses (a named import a CommonJS package does not
 * give, which tsx and vitest allowed), and what it prints where its output is not a terminal.
 */
describe('npm run rebuild on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-rebuild-cli-'));
  let live: Awaited<ReturnType<typeof readModelRows>>;
  let appended = 0;
  beforeAll(async () => {
    const db = await openDatabase({ dataDir });
    try {
      await createEventStoreSchema(db);
      await unlockReadModels(db);
      const store = createEventStore(db);
      const stories = fc.sample(fc.array(step, { minLength: 5, maxLength: 30 }), { seed: 5, numRuns: 4 });
      for (const [i, steps] of stories.entries()) {
        for (const [streamId, event] of await story(db, `cli${i}`, steps)) {
          await store.append(streamId, [event], { expectedRevision: 'any' });
          appended++;
        }
      }
      await buildFromLog(db, store, 'rm');
      live = await readModelRows(db, 'rm');
    } finally {
      await db.close();
    }
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('rebuilds the read models a projector built, printing its progress and what it applied', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...TEST_DATA_KEY_ENV, DATA_DIR: dataDir };
    delete env.DATABASE_URL; // the embedded database, whatever database the test run is given
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(root, 'projector/src/rebuild-cli.ts')],
      { cwd: root, env },
    );
    const lines = stdout.split('\n');
    expect(lines).toContain(`Done: ${appended} events applied; the rebuilt read models are live.`);
    // Not a terminal: the bar's lines (on stderr, as cli-progress writes them) are printed whole,
    // the first before any rate is known.
    const bars = stderr.split('\n').filter((line) => line.startsWith('rebuild ['));
    expect(bars[0]).toContain(`| 0/${appended} events | time left not known yet`);
    expect(bars.at(-1)).toContain(`100% | ${appended}/${appended} events`);
    expect(stderr).not.toMatch(/NFs|NaN|Infinity/);

    const db = await openDatabase({ dataDir });
    try {
      await unlockReadModels(db);
      expect(await readModelRows(db, 'rm')).toEqual(live);
    } finally {
      await db.close();
    }
  });
});
