import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readingReplica, replicaCaughtUp } from '../src/store/read-replica.ts';
import { connectPostgres } from '../src/store/postgres.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { postgresDatabase, postgresSkipReason } from '../src/testing/databases.ts';

const skipped = postgresSkipReason();
if (skipped) console.warn(`\n!!! ${skipped} (the read-replica test needs it)\n`);

/**
 * query-api's view of a replica, without a replica (deploy/test/production runs a real one):
 * reads go to the replica and, when it cannot be reached, to the primary; LISTEN goes to the
 * primary; a server that is not a standby counts as caught up at once.
 */
describe.skipIf(skipped)('reading a replica', () => {
  let primary: SqlDatabase;
  let drop: () => Promise<void>;
  let url: string;
  beforeAll(async () => {
    const opened = await postgresDatabase.open();
    ({ db: primary, drop } = opened);
    url = opened.url!;
  });
  afterAll(() => drop?.());

  it('reads the replica, and the primary while the replica cannot be reached, saying so', async () => {
    const replica = connectPostgres({ connectionString: url });
    await replica.query(`CREATE TABLE IF NOT EXISTS where_read (n int)`);
    const reads = readingReplica(replica, primary);
    expect(await reads.query(`SELECT 1 AS n`)).toEqual([{ n: 1 }]);
    const gone = connectPostgres({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
    const fallbacks: string[] = [];
    const fallingBack = readingReplica(gone, primary, (error) => fallbacks.push(error.message));
    expect(await fallingBack.query(`SELECT 2 AS n`)).toEqual([{ n: 2 }]);
    expect(await fallingBack.transaction((tx) => tx.query(`SELECT 3 AS n`))).toEqual([{ n: 3 }]);
    expect(fallbacks).toHaveLength(2);
    // A statement that is wrong is wrong on the primary too: not sent there.
    await expect(reads.query(`SELECT * FROM no_such_table`)).rejects.toThrow(/no_such_table/);
    await replica.close();
    await gone.close();
  });

  it('hears NOTIFY on the primary', async () => {
    const gone = connectPostgres({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
    const heard: string[] = [];
    const unlisten = await readingReplica(gone, primary).listen('replica_test', (payload) => heard.push(payload));
    await primary.query(`SELECT pg_notify('replica_test', 'from the primary')`);
    await expect.poll(() => heard).toEqual(['from the primary']);
    await unlisten();
    await gone.close();
  });

  it('counts a server that is not a standby as caught up at once', async () => {
    const started = Date.now();
    expect(await replicaCaughtUp(primary, primary, 5000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
