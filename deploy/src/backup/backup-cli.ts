import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import { progressBar } from '@portal/platform/cli/progress-bar';
import { uploadsDirFromEnv } from '@portal/platform/http/service-config';
import { databaseConfigFromEnv, openDatabase } from '@portal/platform/store/open';
import { backupSize, writeBackup } from './backup.ts';

/**
 * `npm run backup [-- FILE]`: what cannot be rebuilt (the log, the command side's tables, the
 * wrapped personal-data keys, revocations, the uploads) into one gzipped file, FILE or
 * backups/portal-<time>.backup.gz. On PostgreSQL (DATABASE_URL) while the portal runs; the
 * embedded database (DATA_DIR) can be opened by one process only, so stop `npm start` first.
 * DATA_KEY is not in it: keep that apart.
 */
const out = resolve(process.argv[2] ?? `backups/portal-${new Date().toISOString().replace(/[:.]/g, '-')}.backup.gz`);
mkdirSync(dirname(out), { recursive: true });
const config = databaseConfigFromEnv();
const db = await openDatabase(config);
const bar = new SingleBar(
  progressBar('backup [{bar}] {percentage}% | {value}/{total} rows | {eta_formatted} | {table}'),
);
let started = false;
try {
  const started_at = Date.now();
  const written = await writeBackup(db, uploadsDirFromEnv(), out, (done, total, table) => {
    if (!started) bar.start(total, 0, { table });
    started = true;
    bar.update(done, { table });
  });
  bar.stop();
  const rows = Object.values(written.tables).reduce((sum, n) => sum + n, 0);
  console.log(
    `Wrote ${out}: ${rows} rows (${written.tables['es.events'] ?? 0} events) and ${written.uploads} uploaded files, ` +
      `${(backupSize(out) / 1e6).toFixed(1)} MB in ${((Date.now() - started_at) / 1000).toFixed(1)} s.`,
  );
} finally {
  await db.close();
}
