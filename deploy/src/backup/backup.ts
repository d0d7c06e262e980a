import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import type { Sql, SqlDatabase } from '@portal/platform/store/sql';

/**
 * What cannot be rebuilt: the event log, the command side's tables (credentials, unique values,
 * the round index), the wrapped personal-data keys, and sessions' revocations. The read models
 * (rm) are rebuilt from the log on restore; the relay's Kafka checkpoint is not kept (a restored
 * portal publishes its log again, to the topic it is given).
 */
const KEPT_SCHEMAS = ['es', 'cmd', 'privacy', 'auth'];
const FORMAT = 'course-portal-backup';
const PAGE = 2000;

interface TableInfo {
  table: string;
  key: string[];
  rows: number;
}

/** One line of the file: the header, a page of a table's rows, or an uploaded file. */
type Line =
  | { format: typeof FORMAT; version: 1; createdAt: string; tables: TableInfo[]; uploads: number }
  | { table: string; rows: unknown[] }
  | { upload: string; base64: string };

export type Progress = (done: number, total: number, what: string) => void;

async function keptTables(sql: Sql): Promise<{ table: string; key: string[] }[]> {
  const rows = await sql.query<{ table: string; key: string[] }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS table,
            array_agg(a.attname::text ORDER BY array_position(i.indkey::int2[], a.attnum)) AS key
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (i.indkey)
      WHERE n.nspname = ANY ($1) AND c.relkind = 'r'
      GROUP BY n.nspname, c.relname
      ORDER BY n.nspname, c.relname`,
    [KEPT_SCHEMAS],
  );
  return rows;
}

/** The log in its global order (transaction, then position): the order restore renumbers it in. */
const orderOf = (table: string, key: string[]) => (table === 'es.events' ? ['transaction_id', 'position'] : key);

function files(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? files(path) : entry.isFile() ? [path] : [];
    });
  } catch {
    return [];
  }
}

/**
 * Writes a backup of `db` and the uploads to `out` (gzipped JSON lines). The tables are read in
 * one REPEATABLE READ transaction: one consistent moment, while the portal keeps running. The
 * uploads are copied after it, so every file an event of the copy names is there.
 */
export async function writeBackup(db: SqlDatabase, uploadsDir: string, out: string, onProgress: Progress = () => {}) {
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(out, { mode: 0o600 }));
  const write = (line: Line) =>
    new Promise<void>((done) => (gzip.write(`${JSON.stringify(line)}\n`) ? done() : gzip.once('drain', done)));
  const uploads = files(uploadsDir);
  const counts: Record<string, number> = {};
  await db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const tables = await keptTables(tx);
    const infos: TableInfo[] = [];
    for (const { table, key } of tables) {
      const [{ n }] = (await tx.query(`SELECT count(*)::int AS n FROM ${table}`)) as [{ n: number }];
      infos.push({ table, key, rows: n });
    }
    const total = infos.reduce((sum, info) => sum + info.rows, 0);
    await write({
      format: FORMAT,
      version: 1,
      createdAt: new Date().toISOString(),
      tables: infos,
      uploads: uploads.length,
    });
    let done = 0;
    for (const { table, key } of infos) {
      const order = orderOf(table, key);
      const columns = order.map((column) => `t.${column}`).join(', ');
      const last = order.map((column) => `p.${column}`).join(', ');
      let after: Record<string, unknown> | null = null;
      counts[table] = 0;
      for (;;) {
        // Keyset pages in the key's order (the log's own order for the log): as fast at the end as
        // at the start. The last row's key is read back through the table's own column types.
        const page: { row: Record<string, unknown> }[] = await tx.query(
          `SELECT to_jsonb(t) AS row FROM ${table} t
            ${after ? `WHERE (${columns}) > (SELECT ${last} FROM jsonb_populate_record(null::${table}, $1::jsonb) p)` : ''}
            ORDER BY ${columns} LIMIT ${PAGE}`,
          after ? [JSON.stringify(after)] : [],
        );
        if (page.length === 0) break;
        await write({ table, rows: page.map((entry) => entry.row) });
        after = page[page.length - 1]!.row;
        counts[table] += page.length;
        done += page.length;
        onProgress(done, total, table);
      }
    }
  });
  for (const path of uploads) {
    await write({
      upload: relative(uploadsDir, path).split(sep).join('/'),
      base64: readFileSync(path).toString('base64'),
    });
  }
  gzip.end();
  await written;
  return { tables: counts, uploads: uploads.length };
}

/**
 * Loads a backup into `db`, which must hold no log yet (the schema is made by `prepare`, as the
 * services make it), and the uploads into `uploadsDir`. The log is given the positions of its
 * global order and this database's transaction ids: ids from another cluster would be in this
 * one's future, and no reader would see those events.
 */
export async function restoreBackup(
  db: SqlDatabase,
  file: string,
  uploadsDir: string,
  prepare: (db: SqlDatabase) => Promise<void>,
  onProgress: Progress = () => {},
) {
  await prepare(db);
  const [{ n }] = (await db.query(`SELECT count(*)::int AS n FROM es.events`)) as [{ n: number }];
  if (n > 0) throw new Error(`The database already holds a log of ${n} events: restore into an empty one.`);
  const lines = createInterface({
    input: Readable.from(createReadStream(file).pipe(createGunzip())),
    crlfDelay: Infinity,
  });
  let header: Extract<Line, { format: string }> | null = null;
  let done = 0;
  let total = 0;
  let position = 0;
  const emptied = new Set<string>();
  for await (const text of lines) {
    if (!text) continue;
    const line = JSON.parse(text) as Line;
    if ('format' in line) {
      if (line.format !== FORMAT || line.version !== 1) throw new Error(`${file} is not a portal backup (version 1).`);
      header = line;
      total = line.tables.reduce((sum, table) => sum + table.rows, 0);
      continue;
    }
    if (!header) throw new Error(`${file} does not start with a backup's header.`);
    if ('upload' in line) {
      const target = resolve(uploadsDir, line.upload);
      if (!target.startsWith(resolve(uploadsDir) + sep))
        throw new Error(`an upload outside the folder: ${line.upload}`);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, Buffer.from(line.base64, 'base64'));
      continue;
    }
    if (!header.tables.some((info) => info.table === line.table)) throw new Error(`an unknown table: ${line.table}`);
    await db.transaction(async (tx) => {
      // Rows the schema's own setup made (none but defaults) give way to the backup's.
      if (!emptied.has(line.table)) {
        emptied.add(line.table);
        await tx.query(`DELETE FROM ${line.table}`);
      }
      if (line.table === 'es.events') {
        const rows = line.rows.map((row) => ({ ...(row as object), position: ++position, transaction_id: undefined }));
        await tx.query(
          `INSERT INTO es.events OVERRIDING SYSTEM VALUE
           SELECT r.position, pg_current_xact_id(), r.stream_id, r.stream_revision, r.type, r.schema_version, r.data,
                  r.metadata, r.created_at
             FROM jsonb_populate_recordset(null::es.events, $1::jsonb) r`,
          [JSON.stringify(rows)],
        );
      } else {
        await tx.query(
          `INSERT INTO ${line.table} SELECT * FROM jsonb_populate_recordset(null::${line.table}, $1::jsonb)`,
          [JSON.stringify(line.rows)],
        );
      }
    });
    done += line.rows.length;
    onProgress(done, total, line.table);
  }
  if (!header) throw new Error(`${file} is empty.`);
  // The log's identity goes on after the last restored position.
  await db.query(
    `SELECT setval(pg_get_serial_sequence('es.events', 'position'), GREATEST($1::bigint, 1), $1::bigint > 0)`,
    [position],
  );
  return { events: position, tables: header.tables.length, uploads: header.uploads };
}

export const backupSize = (file: string) => statSync(file).size;
