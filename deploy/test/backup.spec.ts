import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareCommandTables } from '@portal/command-api/app';
import { unlockReadModels } from '@portal/platform/read-models/sealed-columns';
import { createEventStore } from '@portal/platform/store/event-store';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { START } from '@portal/platform/store/port';
import { memberRegisteredEvent, sampleMember } from '@portal/platform/testing/accounts';
import { TEST_DATA_KEY_ENV } from '@portal/platform/testing/data-keys';
import { accountStream } from '@portal/contracts/accounts/account.events';
import { type TestDatabase, pgliteDatabase, postgresDatabase, testDatabases } from '@portal/platform/testing/databases';
import { projections } from '@portal/projector/projections/index';
import { rebuildReadModels } from '@portal/projector/rebuild';
import { readModelRows, readModelSizes } from '@portal/projector/testing/read-model-copies';
import { scanSteadily, seedActivity } from '../src/testing/activity.ts';
import { restoreBackup, writeBackup } from '../src/backup/backup.ts';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** The calls whose answers must be the same on the portal and on its restored copy. */
const SAMPLE = [
  '/api/admin/registration',
  '/api/admin/courses',
  '/api/courses',
  '/api/admin/audit/scans?page=1&pageSize=50',
];

/**
 * A backup restores: a seeded portal is backed up while it runs, restored into an empty database
 * elsewhere, its read models rebuilt, and every read model and a sample of answers are the same.
 */
describe.each(testDatabases())('backup and restore on $name', (database) => {
  let portal: TestPortal;
  let dir: string;
  beforeAll(async () => {
    portal = await openTestPortal(database);
    dir = mkdtempSync(join(tmpdir(), 'backup-'));
  });
  afterAll(async () => {
    await portal.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const { call } = portalCalls(() => portal);
  const answers = async (target: TestPortal) => {
    const found: Record<string, unknown> = {};
    for (const url of SAMPLE) {
      const answer = await target.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${target.adminToken}` },
      });
      found[url] = { status: answer.statusCode, body: answer.json() };
    }
    return found;
  };

  it('restores every read model and the same answers from a backup taken while the portal ran', async () => {
    await seedActivity(portal, { courses: 3, members: 4 });
    writeFileSync(join(portal.uploadsDir, 'photo.webp'), Buffer.from('a photo'));
    await call('GET', '/api/admin/registration', portal.adminToken); // caught up (read-your-writes)
    const file = join(dir, `portal-${database.name}.backup.gz`);
    const written = await writeBackup(portal.db, portal.uploadsDir, file);
    expect(written.tables['es.events']).toBeGreaterThan(50);
    expect(written.uploads).toBe(1);

    // Elsewhere: a fresh database and upload folder, restored, the read models rebuilt.
    const restoredUploads = mkdtempSync(join(dir, 'uploads-'));
    let copy: SqlDatabase | null = null;
    const elsewhere: TestDatabase = {
      ...database,
      async open() {
        const opened = await database.open();
        copy = opened.db;
        await restoreBackup(opened.db, file, restoredUploads, async (db) => {
          await createEventStoreSchema(db);
          await prepareCommandTables(db);
        });
        await rebuildReadModels({ db: opened.db, store: createEventStore(opened.db), projections });
        return opened;
      },
    };
    const restored = await openTestPortal(elsewhere);
    try {
      await unlockReadModels(copy!);
      expect(readdirSync(restoredUploads)).toEqual(['photo.webp']);
      expect(await readModelRows(copy!, 'rm')).toEqual(await readModelRows(portal.db, 'rm'));
      // Equal, and not merely empty on both sides.
      const sizes = await readModelSizes(copy!, 'rm');
      for (const table of ['accounts', 'courses', 'attendance', 'scan_attempts', 'notifications']) {
        expect(sizes[table], table).toBeGreaterThan(0);
      }
      expect(await answers(restored)).toEqual(await answers(portal));
      // The restored log goes on: a new registration appends after the restored positions.
      const { call: callCopy } = portalCalls(() => restored);
      const before = (await restored.store.readAll(START, 100_000)).length;
      const registered = await callCopy('POST', '/api/members/register', '', sampleMember());
      expect(registered.statusCode).toBe(201);
      // (its event, and the admins' notification of it)
      expect(registered.json().position).toBeGreaterThan(before);
      expect(registered.json().position).toBeLessThanOrEqual(before + 2);
      // Into a database that already holds a log: refused, nothing changed.
      await expect(restoreBackup(copy!, file, restoredUploads, async () => {})).rejects.toThrow(
        /restore into an empty one/,
      );
    } finally {
      await restored.close();
    }
  });
});

/**
 * A backup taken while scans keep coming is one consistent moment: every stream's events in the
 * copy run without a gap from its first revision, and the copied stream table says the same
 * revision as its last copied event (a copy read table by table, outside one snapshot, breaks it).
 */
describe.skipIf(!process.env.DATABASE_URL)('a backup under writes', () => {
  it('copies one moment of the log while scans are appended', async () => {
    const portal = await openTestPortal(postgresDatabase);
    const dir = mkdtempSync(join(tmpdir(), 'backup-busy-'));
    try {
      const activity = await seedActivity(portal, { courses: 2, members: 4 });
      const stream = scanSteadily(portal, activity, 4);
      await expect.poll(() => stream.done, { timeout: 10_000 }).toBeGreaterThan(10);
      const file = join(dir, 'busy.backup.gz');
      await writeBackup(portal.db, portal.uploadsDir, file);
      const during = stream.done;
      await expect.poll(() => stream.done, { timeout: 10_000 }).toBeGreaterThan(during); // still writing after it
      await stream.stop();
      // Read the file back: each stream's revisions, and what es.streams says of it.
      const revisions = new Map<string, number[]>();
      const streams = new Map<string, number>();
      const lines = gunzipSync(readFileSync(file)).toString('utf8').trim().split('\n');
      for (const line of lines.map((text) => JSON.parse(text))) {
        if (line.table === 'es.events') {
          for (const row of line.rows)
            revisions.set(row.stream_id, [...(revisions.get(row.stream_id) ?? []), Number(row.stream_revision)]);
        }
        if (line.table === 'es.streams') for (const row of line.rows) streams.set(row.stream_id, Number(row.revision));
      }
      expect(revisions.size).toBeGreaterThan(10);
      expect([...streams.keys()].sort()).toEqual([...revisions.keys()].sort());
      for (const [id, seen] of revisions) {
        const sorted = [...seen].sort((a, b) => a - b);
        expect(sorted, id).toEqual(sorted.map((_, index) => sorted[0]! + index));
        expect(streams.get(id), id).toBe(sorted[sorted.length - 1]);
      }
    } finally {
      await portal.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** A backup file is input too: an upload's name may not lead outside the upload folder. */
describe('a hostile backup file', () => {
  it('refuses an upload named to escape the folder, writing nothing outside it', async () => {
    const database = await pgliteDatabase.open();
    const dir = mkdtempSync(join(tmpdir(), 'backup-hostile-'));
    try {
      const header = { format: 'course-portal-backup', version: 1, createdAt: '', tables: [], uploads: 1 };
      for (const name of ['../escaped.txt', '/tmp/escaped-absolute.txt', 'a/../../escaped.txt']) {
        const file = join(dir, 'hostile.backup.gz');
        const lines = [header, { upload: name, base64: Buffer.from('x').toString('base64') }];
        writeFileSync(file, gzipSync(lines.map((line) => JSON.stringify(line)).join('\n')));
        await expect(
          restoreBackup(database.db, file, join(dir, 'uploads'), async (db) => {
            await createEventStoreSchema(db);
            await prepareCommandTables(db);
          }),
        ).rejects.toThrow(/an upload outside the folder/);
      }
      expect(existsSync(join(dir, 'escaped.txt'))).toBe(false);
      expect(existsSync('/tmp/escaped-absolute.txt')).toBe(false);
    } finally {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The README's commands, as an operator runs them, on PostgreSQL. */
describe.skipIf(!process.env.DATABASE_URL)('npm run backup and npm run restore', () => {
  it('backs up a database and restores it into another with progress, refusing a second restore', async () => {
    const source = await postgresDatabase.open();
    const target = await postgresDatabase.open();
    const dir = mkdtempSync(join(tmpdir(), 'backup-cli-'));
    try {
      await createEventStoreSchema(source.db);
      await prepareCommandTables(source.db);
      const store = createEventStore(source.db);
      for (let n = 0; n < 20; n++) {
        const id = `aaaaaaaaaaaaaaaaaaaa${String(n).padStart(4, '0')}`;
        await store.append(accountStream(id), [await memberRegisteredEvent(source.db, id)], {
          expectedRevision: 'any',
        });
      }
      const file = join(dir, 'portal.backup.gz');
      const env = { ...process.env, ...TEST_DATA_KEY_ENV, UPLOADS_DIR: join(dir, 'uploads'), DATA_DIR: dir };
      const backup = await run('npm', ['run', '--silent', 'backup', '--', file], {
        cwd: root,
        env: { ...env, DATABASE_URL: source.url! },
      });
      expect(backup.stdout).toMatch(/Wrote .*portal\.backup\.gz: \d+ rows \(20 events\)/);
      // Not on a terminal here: the progress comes as whole lines on stderr, to the last row.
      expect(backup.stderr).toMatch(/^backup \[=+\] 100% \| (\d+)\/\1 rows \| /m);
      expect(existsSync(file)).toBe(true);
      const restore = await run('npm', ['run', '--silent', 'restore', '--', file], {
        cwd: root,
        env: { ...env, DATABASE_URL: target.url! },
      });
      expect(restore.stdout).toContain('Restored 20 events');
      expect(restore.stderr).toMatch(/^restore \[=+\] 100% \| (\d+)\/\1 rows/m);
      expect(restore.stderr).toMatch(/^rebuild \[=+\] 100% \| 20\/20 events/m);
      expect(restore.stderr + backup.stderr).not.toMatch(/NFs|NaN/);
      const [{ n }] = (await target.db.query(`SELECT count(*)::int AS n FROM es.events`)) as [{ n: number }];
      expect(n).toBe(20);
      // Into another cluster, whose transaction ids are far behind this one's (PGlite's): every event readable.
      const elsewhere = await pgliteDatabase.open();
      try {
        await restoreBackup(elsewhere.db, file, join(dir, 'uploads-pglite'), async (db) => {
          await createEventStoreSchema(db);
          await prepareCommandTables(db);
        });
        const rebuilt = await rebuildReadModels({
          db: elsewhere.db,
          store: createEventStore(elsewhere.db),
          projections,
        });
        expect(rebuilt.events).toBe(20);
        expect((await readModelSizes(elsewhere.db, 'rm')).accounts).toBe(20);
      } finally {
        await elsewhere.drop();
      }
      await expect(
        run('npm', ['run', '--silent', 'restore', '--', file], {
          cwd: root,
          env: { ...env, DATABASE_URL: target.url! },
        }),
      ).rejects.toThrow(/restore into an empty one/);
    } finally {
      await source.drop();
      await target.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
