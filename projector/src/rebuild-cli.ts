import { SingleBar } from 'cli-progress';
import { databaseConfigFromEnv, openDatabase } from '@portal/platform/store/open';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import { dataKeysFromEnv, useDataKeys } from '@portal/platform/privacy/data-key';
import { rebuildWhereTheDatabaseIs } from './thread/rebuild-beside.ts';
import { REBUILD_BAR } from '@portal/platform/cli/progress-bar';

/** `npm run rebuild`: every read model rebuilt from the log, with a progress bar. */
const config = databaseConfigFromEnv();
// The embedded start keeps its key in DATA_DIR; a PostgreSQL log needs DATA_KEY unless that file is there.
const embeddedKey = !config.databaseUrl || existsSync(join(config.dataDir, 'data-key'));
useDataKeys(dataKeysFromEnv(process.env, embeddedKey ? config.dataDir : undefined));
const db = await openDatabase(config);
try {
  await createEventStoreSchema(db);
  console.log(`Rebuilding read models from the log in ${config.databaseUrl ? 'PostgreSQL' : config.dataDir}`);
  const bar = new SingleBar(REBUILD_BAR);
  let started = false;
  const { events } = await rebuildWhereTheDatabaseIs(db, {
    onProgress: (done, total) => {
      if (!started) bar.start(total, done, { stage: '' });
      started = true;
      bar.setTotal(total);
      bar.update(done);
    },
    onIndexing: () => bar.update({ stage: ' | counting, building the indexes queries read' }),
  });
  bar.stop();
  console.log(`Done: ${events} events applied; the rebuilt read models are live.`);
} finally {
  await db.close();
}
