import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SingleBar } from 'cli-progress';
import { progressBar } from '@portal/platform/cli/progress-bar';
import { prepareCommandTables } from '@portal/command-api/app';
import { uploadsDirFromEnv } from '@portal/platform/http/service-config';
import { dataKeysFromEnv, useDataKeys } from '@portal/platform/privacy/data-key';
import { createEventStore } from '@portal/platform/store/event-store';
import { databaseConfigFromEnv, openDatabase } from '@portal/platform/store/open';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import { projections } from '@portal/projector/projections/index';
import { rebuildReadModels } from '@portal/projector/rebuild';
import { restoreBackup } from './backup.ts';

/**
 * `npm run restore -- FILE`: loads a backup made by `npm run backup` into an empty database
 * (DATABASE_URL, or the embedded one in DATA_DIR) and its uploads into UPLOADS_DIR, then rebuilds
 * every read model from the restored log. Needs the DATA_KEY the backed-up portal used.
 */
const file = process.argv[2];
if (!file || !existsSync(file)) throw new Error('usage: npm run restore -- <backup file>');
const config = databaseConfigFromEnv();
const embeddedKey = !config.databaseUrl || existsSync(join(config.dataDir, 'data-key'));
useDataKeys(dataKeysFromEnv(process.env, embeddedKey ? config.dataDir : undefined));
const db = await openDatabase(config);
const bar = new SingleBar(progressBar('{stage} [{bar}] {percentage}% | {value}/{total} {unit} | {eta_formatted}'));
try {
  const startedAt = Date.now();
  let started = false;
  const restored = await restoreBackup(
    db,
    file,
    uploadsDirFromEnv(),
    async (target) => {
      await createEventStoreSchema(target);
      await prepareCommandTables(target);
    },
    (done, total) => {
      if (!started) bar.start(total, 0, { stage: 'restore', unit: 'rows' });
      started = true;
      bar.update(done);
    },
  );
  bar.stop();
  console.log(`Restored ${restored.events} events and ${restored.uploads} uploaded files; rebuilding the read models.`);
  started = false;
  const { events } = await rebuildReadModels({
    db,
    store: createEventStore(db),
    projections,
    onProgress: (done, total) => {
      if (!started) bar.start(total, done, { stage: 'rebuild', unit: 'events' });
      started = true;
      bar.setTotal(total);
      bar.update(done);
    },
  });
  bar.stop();
  console.log(
    `Done in ${((Date.now() - startedAt) / 1000).toFixed(1)} s: ${events} events applied; start the portal on it.`,
  );
} finally {
  await db.close();
}
