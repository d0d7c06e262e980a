import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataKeysInUse, useDataKeys } from '@portal/platform/privacy/data-key';
import { localPglite } from '@portal/platform/store/pglite-local';
import { createPglite, schemaSnapshotPath } from '@portal/platform/store/pglite-snapshot';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { projections } from '@portal/projector/projections/index';
import { testUploadsDir } from '@portal/platform/testing/databases';
import { startPortal } from '../src/portal.ts';
import { makeSchemaSnapshot, rowsByTable } from '../src/schema-snapshot.ts';
import { TEST_ADMIN } from '../src/testing/test-portal.ts';

/**
 * A whole start of the portal on `db` (deploy/src/portal.ts, startPortal, as `npm start` runs it
 * but for the thread the projector runs in), then its stop: what the snapshot must already hold
 * is what a start makes, whatever step a later change adds to it.
 */
async function startAndStop(db: SqlDatabase) {
  const portal = await startPortal({
    db,
    sessionSecret: 'schema-snapshot-test-secret-long-enough',
    admin: TEST_ADMIN,
    uploadsDir: testUploadsDir(),
    mail: { from: 'Course Portal <no-reply@course-portal.invalid>' },
    kafka: null,
  });
  await portal.close();
}

/** Everything the catalogue says of the portal's schemas, in an order of its own. */
async function schemaOf(db: SqlDatabase): Promise<string[]> {
  const ours = `NOT IN ('pg_catalog', 'information_schema', 'pg_toast')`;
  const rows = await db.query<{ line: string }>(
    `SELECT concat_ws(' ', 'column', n.nspname, c.relname, c.relkind, a.attname, format_type(a.atttypid, a.atttypmod),
                      a.attnotnull, pg_get_expr(d.adbin, d.adrelid), a.attcollation::regcollation, a.attstattarget) AS line
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname ${ours} AND a.attnum > 0 AND NOT a.attisdropped
     UNION ALL
     SELECT concat_ws(' ', 'index', schemaname, indexdef, obj_description(to_regclass(schemaname || '.' || indexname), 'pg_class'))
       FROM pg_indexes WHERE schemaname ${ours}
     UNION ALL
     SELECT concat_ws(' ', 'constraint', conrelid::regclass, conname, pg_get_constraintdef(oid)) FROM pg_constraint
      WHERE connamespace::regnamespace::text ${ours}
     UNION ALL
     SELECT concat_ws(' ', 'function', pg_get_functiondef(p.oid), obj_description(p.oid, 'pg_proc'))
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname ${ours} AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.objid = p.oid AND e.deptype = 'e')
     UNION ALL
     SELECT concat_ws(' ', 'view', schemaname, viewname, definition, obj_description(to_regclass(schemaname || '.' || viewname), 'pg_class'))
       FROM pg_views WHERE schemaname ${ours}
     UNION ALL
     SELECT concat_ws(' ', 'extension', extname, extversion) FROM pg_extension
     ORDER BY 1`,
  );
  return rows.map((row) => row.line);
}

/**
 * `npm start` runs a new embedded database from the schema snapshot its code made (npm ci's
 * postinstall): it must be the database a new one's preparation makes, and hold nothing of one
 * installation's: no key (its preparation makes the read models' key), no event.
 */
describe('the schema snapshot a new embedded database starts from', () => {
  const folders: string[] = [];
  const folder = () => {
    const made = mkdtempSync(join(tmpdir(), 'portal-schema-snapshot-'));
    folders.push(made);
    return made;
  };
  const keysBefore = dataKeysInUse();
  const snapshotDirBefore = process.env.PORTAL_PGLITE_SNAPSHOT_DIR;
  const key = 'test-key';
  const opened: PGlite[] = [];
  const open = async (options: { schemaKey: string | null }) => {
    const pglite = await createPglite(folder(), options);
    opened.push(pglite);
    return localPglite(pglite, () => {}).database;
  };
  beforeAll(async () => {
    process.env.PORTAL_PGLITE_SNAPSHOT_DIR = folder();
    await makeSchemaSnapshot(schemaSnapshotPath(key));
    useDataKeys(keysBefore); // the snapshot was made with a key of its own, then forgotten
  }, 60_000);
  afterAll(async () => {
    for (const pglite of opened) await pglite.close();
    if (snapshotDirBefore === undefined) delete process.env.PORTAL_PGLITE_SNAPSHOT_DIR;
    else process.env.PORTAL_PGLITE_SNAPSHOT_DIR = snapshotDirBefore;
    for (const made of folders) rmSync(made, { recursive: true, force: true });
  });

  it('holds the schema a start makes, and after a start on it is the database a start makes on a new one', async () => {
    const fromSnapshot = await open({ schemaKey: key });
    const made = await open({ schemaKey: null });
    await startAndStop(made);
    const expected = await schemaOf(made);
    expect(expected.length).toBeGreaterThan(300);
    expect(await schemaOf(fromSnapshot)).toEqual(expected); // as it was loaded
    await startAndStop(fromSnapshot);
    expect(await schemaOf(fromSnapshot)).toEqual(expected);
    expect(await rowsByTable(fromSnapshot)).toEqual(await rowsByTable(made));
  }, 60_000);

  it("holds no key and no event, only the code's own rows", async () => {
    const fromSnapshot = await open({ schemaKey: key });
    expect(await rowsByTable(fromSnapshot)).toEqual({
      'rm.checkpoints': 1,
      'rm.projection_versions': projections.length,
    });
    // Nor the deleted key's row in the files: its table was rewritten, empty.
    const [size] = await fromSnapshot.query<{ bytes: number }>(
      `SELECT pg_relation_size('privacy.subject_keys')::int AS bytes`,
    );
    expect(size!.bytes).toBe(0);
  });

  it("is copied for each new database: one's writes reach neither the snapshot nor the next", async () => {
    const first = await open({ schemaKey: key });
    await first.query(`CREATE TABLE public.written_after (n int)`);
    const next = await open({ schemaKey: key });
    const table = `SELECT to_regclass('public.written_after')::text AS t`;
    expect((await next.query<{ t: string | null }>(table))[0]!.t).toBeNull();
    expect((await first.query<{ t: string | null }>(table))[0]!.t).toBe('written_after');
  });

  it('runs a database copied from it with 32 MB of shared buffers, as every embedded database (pglite-snapshot.ts)', async () => {
    const copied = await open({ schemaKey: key });
    const [setting] = await copied.query<{ size: string }>(`SELECT current_setting('shared_buffers') AS size`);
    expect(setting!.size).toBe('32MB');
  });

  it("clears a copy a killed start left beside the new database's folder", async () => {
    const dataDir = join(folder(), 'pglite');
    const left = `${dataDir}.partial`;
    mkdirSync(left);
    writeFileSync(join(left, 'PG_VERSION'), '17');
    writeFileSync(join(left, 'left-behind'), '');
    const pglite = await createPglite(dataDir, { schemaKey: key });
    opened.push(pglite);
    expect(existsSync(left)).toBe(false);
    // The snapshot's files only: nothing of the copy cut short came along.
    expect(existsSync(join(dataDir, 'left-behind'))).toBe(false);
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim()).not.toBe('17');
  });

  it('is not copied into a folder that already holds files, which PGlite is left to open', async () => {
    const dataDir = folder();
    writeFileSync(join(dataDir, 'left-by-someone'), '');
    const pglite = await createPglite(dataDir, { schemaKey: key });
    opened.push(pglite);
    const db = localPglite(pglite, () => {}).database;
    expect((await db.query<{ log: string | null }>(`SELECT to_regclass('es.events')::text AS log`))[0]!.log).toBeNull();
    expect(readdirSync(dirname(dataDir)).filter((name) => name.startsWith(`${basename(dataDir)}.`))).toEqual([]);
  });

  it('is not used by code of another content key, nor for a folder that holds a database', async () => {
    const hasLog = async (db: SqlDatabase) =>
      (await db.query<{ log: string | null }>(`SELECT to_regclass('es.events')::text AS log`))[0]!.log !== null;
    expect(await hasLog(await open({ schemaKey: 'another-key' }))).toBe(false);
    const dataDir = folder();
    await (await createPglite(dataDir, { schemaKey: null })).close();
    const again = await createPglite(dataDir, { schemaKey: key });
    opened.push(again);
    expect(await hasLog(localPglite(again, () => {}).database)).toBe(false);
    expect(await hasLog(await open({ schemaKey: key }))).toBe(true);
  });
});
