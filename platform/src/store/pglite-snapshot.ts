import { cpSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Extensions, PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { installCacheFolder, writeFileWhole } from '../files/install-cache.ts';
import { bundleContentKey } from '../threads/bundle.ts';

/** pgcrypto: the read models' personal columns are opened in SQL (../read-models/sealed-columns.ts). */
const PGLITE_EXTENSIONS = { pgcrypto } satisfies Extensions;

/**
 * PGlite's start with 32 MB of shared buffers instead of the 128 MB of initdb's configuration:
 * PGlite fills its shared memory in WebAssembly at each opening, about 4 ms a megabyte here, so a
 * database opened 0.3 to 0.5 s sooner (every `npm start`, every test's database), and its process
 * holds 96 MB less. Its files are read through Node from the kernel's page cache, so fewer
 * buffers cost no measurable time: a rebuild of 205,164 events, and the reports at 200 requests/s
 * over 100,000 members and 1,000,000 scans, took the same time and CPU with either
 * (docs/performance.md, machine AJ). The setting is given at each start, so older data folders
 * take it too; their postgresql.conf is left as initdb wrote it.
 */
const PGLITE_OPTIONS = {
  extensions: PGLITE_EXTENSIONS,
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
};

const pgliteVersion = (): string => {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  // The package's own package.json is not among its exports: found from its entry point.
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (name === '@electric-sql/pglite' && version) return version;
  }
  throw new Error("PGlite's version could not be found");
};

const snapshotFolder = () => installCacheFolder('portal-pglite', process.env.PORTAL_PGLITE_SNAPSHOT_DIR);

/** Where the snapshot for this PGlite lives (PORTAL_PGLITE_SNAPSHOT_DIR overrides the folder, for tests). */
export function snapshotPath(): string {
  return join(snapshotFolder(), `fresh-${pgliteVersion()}.tar`);
}

/**
 * Where the snapshot of a new database with the portal's schema made by the code whose content key
 * is `key` lives (deploy/src/schema-snapshot.ts makes it), for this PGlite: a data folder, which
 * a new database's folder is copied from (createPglite).
 */
export function schemaSnapshotPath(key: string): string {
  return join(snapshotFolder(), `schema-${pgliteVersion()}-${key}`);
}

/**
 * The databases initdb makes beside `postgres`, the one PGlite opens: only CREATE DATABASE reads
 * them, which the embedded portal never runs (its backups and restores are its own, not pg_dump's
 * or pg_upgrade's, which would want template1; a database made without the snapshot keeps them).
 * They are 600 of the folder's 972 files, and a new database's start is mostly creating its
 * files: 372 instead of 972 took 0.5 to 0.7 s off it where creating a file costs the kernel 1 ms
 * (docs/performance.md, machine X).
 */
const TEMPLATE_DATABASES = ['template1', 'template0'];

/**
 * Makes the snapshot: a database initialised in memory without the template databases, its data
 * folder written as a tar file.
 */
export async function makeSnapshot(path = snapshotPath()): Promise<void> {
  const db = await PGlite.create(PGLITE_OPTIONS);
  try {
    for (const name of TEMPLATE_DATABASES) {
      await db.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
      await db.exec(`DROP DATABASE ${name}`);
    }
    await writeSnapshot(db, path);
  } finally {
    await db.close();
  }
}

/**
 * Makes a snapshot as a data folder at `path`: a new database in a folder beside it, made by
 * `prepare`, closed (PostgreSQL shut down cleanly, so the copy a new database starts from needs
 * no recovery), then renamed to `path`, whole or not at all.
 */
export async function makeSnapshotFolder(path: string, prepare: (db: PGlite) => Promise<void>): Promise<void> {
  const partial = `${path}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  try {
    const db = await createPglite(partial, { schemaKey: null });
    try {
      await prepare(db);
    } finally {
      await db.close();
    }
    rmSync(path, { recursive: true, force: true });
    renameSync(partial, path);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

/** Writes the data folder of `db` as a tar file at `path`, whole or not at all: a reader never sees half a file. */
export async function writeSnapshot(db: PGlite, path: string): Promise<void> {
  writeFileWhole(path, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
}

/**
 * Opens the embedded database in `dataDir` (in memory without one): from a snapshot when the
 * folder holds no database yet and there is one for this PGlite, else as PGlite does.
 *
 * A new embedded database starts from a snapshot of a freshly initialised one instead of running
 * PostgreSQL's `initdb` in WebAssembly: 0.45 s instead of 2.0 s for a data folder on disk, 0.35 s
 * instead of 1.0 s in memory (each test's). `npm ci` makes it once (the root package's
 * postinstall, deploy/scripts/pglite-snapshot.ts), under node_modules/.cache, named by PGlite's
 * version, so an upgrade of PGlite never loads another version's files: without a snapshot of its
 * own version the database is initialised as before. The snapshot is the data folder `initdb`
 * leaves without its two template databases (TEMPLATE_DATABASES), nothing of ours in it; a folder
 * that already holds a database is opened as it is, never overwritten.
 *
 * Run from its bundle (`npm start`), a new database's folder is instead a copy of the schema
 * snapshot's made by the same code (`schemaKey`, the bundle's content key), when there is one: the
 * portal's tables, functions and views already made, which took a new database's start 0.6 to 0.9
 * s (its preparation then finds them there, as at any later start). Copied as files rather than
 * given to PGlite as a tar, which it reads through a Blob's stream into its file system, the new
 * database opens about half a second sooner (docs/performance.md, machine AF).
 */
export async function createPglite(
  dataDir: string | undefined,
  { schemaKey = bundleContentKey() }: { schemaKey?: string | null } = {},
): Promise<PGlite> {
  const isNew = !dataDir || !existsSync(join(dataDir, 'PG_VERSION'));
  if (isNew && dataDir && schemaKey && copiedFrom(schemaSnapshotPath(schemaKey), dataDir)) {
    return PGlite.create({ ...PGLITE_OPTIONS, dataDir });
  }
  const loadDataDir = isNew && existsSync(snapshotPath()) ? new Blob([readFileSync(snapshotPath())]) : undefined;
  return PGlite.create({ ...PGLITE_OPTIONS, dataDir, loadDataDir });
}

/**
 * Copies the snapshot's data folder to `dataDir`, whole or not at all (a copy cut short is never
 * taken for a database): into `<dataDir>.partial` beside it, then renamed to it; a copy a killed
 * start left there goes first (one process opens a data folder: open.ts locks it). False when
 * there is no such snapshot, or `dataDir` already holds something (PGlite is left to decide).
 */
function copiedFrom(snapshot: string, dataDir: string): boolean {
  if (!existsSync(join(snapshot, 'PG_VERSION'))) return false;
  const partial = `${dataDir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  try {
    cpSync(snapshot, partial, { recursive: true });
    renameSync(partial, dataDir); // onto an empty folder too
    return true;
  } catch {
    return false;
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}
