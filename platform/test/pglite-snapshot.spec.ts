import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventStore } from '../src/store/event-store.ts';
import { localPglite } from '../src/store/pglite-local.ts';
import { createPglite, makeSnapshot, snapshotPath } from '../src/store/pglite-snapshot.ts';
import { createEventStoreSchema } from '../src/store/schema.ts';

/** What a database shows of how initdb made it, and that it can hold the log. */
async function describeDatabase(db: PGlite) {
  const { rows } = await db.query<{
    version: string;
    encoding: string;
    collate: string;
    ctype: string;
    databases: string;
  }>(
    `SELECT current_setting('server_version') AS version, current_setting('server_encoding') AS encoding,
            datcollate AS collate, datctype AS ctype, (SELECT string_agg(datname, ',' ORDER BY datname) FROM pg_database) AS databases
       FROM pg_database WHERE datname = current_database()`,
  );
  const sql = localPglite(db, () => {}).database;
  await createEventStoreSchema(sql);
  const appended = await createEventStore(sql).append('snapshot-check', [{ type: 'T', schemaVersion: 1, data: {} }], {
    expectedRevision: 'no_stream',
  });
  return { ...rows[0]!, appended: appended.nextRevision };
}

/**
 * A new embedded database starts from the snapshot npm ci made (pglite-snapshot.ts): it must be
 * the database initdb would have made (but for the template databases, which only CREATE DATABASE
 * reads), and a folder that already holds one must never be replaced.
 */
describe('the snapshot a new embedded database starts from', () => {
  const folders: string[] = [];
  const folder = () => {
    const made = mkdtempSync(join(tmpdir(), 'portal-snapshot-'));
    folders.push(made);
    return made;
  };
  const before = process.env.PORTAL_PGLITE_SNAPSHOT_DIR;
  beforeAll(() => {
    process.env.PORTAL_PGLITE_SNAPSHOT_DIR = folder();
  });
  afterAll(() => {
    if (before === undefined) delete process.env.PORTAL_PGLITE_SNAPSHOT_DIR;
    else process.env.PORTAL_PGLITE_SNAPSHOT_DIR = before;
    for (const made of folders) rmSync(made, { recursive: true, force: true });
  });

  it('gives the database initdb gives, without the template databases, on disk and in memory', async () => {
    expect(existsSync(snapshotPath())).toBe(false);
    const initialised = await createPglite(folder()); // no snapshot yet: initdb
    const byInitdb = await describeDatabase(initialised);
    await initialised.close();
    expect(byInitdb.databases).toBe('postgres,template0,template1');
    // Only CREATE DATABASE reads them, which the embedded portal never runs.
    const expected = { ...byInitdb, databases: 'postgres' };

    await makeSnapshot();
    expect(existsSync(snapshotPath())).toBe(true);
    for (const dataDir of [folder(), undefined]) {
      const restored = await createPglite(dataDir);
      expect(await describeDatabase(restored)).toEqual(expected);
      await restored.close();
    }
  }, 60_000);

  it("loads it for every new database: each is the snapshot's cluster, not one initdb made anew", async () => {
    // initdb gives every cluster a system identifier of its own; a copy keeps its original's.
    const identifier = async (db: PGlite) =>
      (await db.query<{ id: string }>(`SELECT system_identifier::text AS id FROM pg_control_system()`)).rows[0]!.id;
    const made = async (dataDir: string | undefined) => {
      const db = await createPglite(dataDir);
      const id = await identifier(db);
      await db.close();
      return id;
    };
    await makeSnapshot();
    const fromSnapshot = [await made(folder()), await made(undefined), await made(folder())];
    expect(new Set(fromSnapshot).size).toBe(1);
    rmSync(snapshotPath());
    expect(await made(folder())).not.toBe(fromSnapshot[0]);
  }, 60_000);

  it('opens a folder that already holds a database as it is, snapshot or not', async () => {
    if (!existsSync(snapshotPath())) await makeSnapshot();
    const dataDir = folder();
    const first = await createPglite(dataDir);
    await first.exec(`CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)`);
    await first.close();

    const again = await createPglite(dataDir);
    expect((await again.query<{ n: number }>(`SELECT n FROM kept`)).rows).toEqual([{ n: 42 }]);
    await again.close();
  }, 60_000);

  it("runs every database, new or kept, with 32 MB of shared buffers, its folder's configuration untouched", async () => {
    // PGlite fills its shared memory at each opening: 128 MB (initdb's value) cost every start 0.3 to 0.5 s.
    const buffers = async (db: PGlite) =>
      (await db.query<{ size: string }>(`SELECT current_setting('shared_buffers') AS size`)).rows[0]!.size;
    const dataDir = folder();
    for (const opening of ['new', 'kept']) {
      const db = await createPglite(dataDir);
      expect({ opening, size: await buffers(db) }).toEqual({ opening, size: '32MB' });
      await db.close();
    }
    expect(readFileSync(join(dataDir, 'postgresql.conf'), 'utf8')).toMatch(/^shared_buffers = 128MB/m);
    const inMemory = await createPglite(undefined);
    expect(await buffers(inMemory)).toBe('32MB');
    await inMemory.close();
  }, 60_000);
});
