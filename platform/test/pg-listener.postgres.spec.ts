import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../src/store/postgres.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { postgresDatabase, postgresSkipReason } from '../src/testing/databases.ts';

const skipped = postgresSkipReason();
if (skipped) console.warn(`\n!!! ${skipped} (the listening connection's test needs it)\n`);

/**
 * A database handle listens on all its channels over one connection (pg-listener.ts): PostgreSQL
 * wakes every listening backend of the database at each NOTIFY, so each connection more is a
 * wake-up more per append.
 */
describe.skipIf(skipped)('listening on PostgreSQL', () => {
  let admin: SqlDatabase;
  let drop: () => Promise<void>;
  let url: string;
  beforeAll(async () => {
    const opened = await postgresDatabase.open();
    ({ db: admin, drop } = opened);
    url = opened.url!;
  });
  afterAll(() => drop?.());

  // The listening backends of this database: their last statement LISTENed or UNLISTENed.
  const listening = async () =>
    (
      await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query ~* '^(UN)?LISTEN'`,
      )
    ).map(({ pid }) => pid);
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 200 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await check()).toBe(true);
  };
  const notify = (channel: string, payload: string) => admin.query(`SELECT pg_notify($1, $2)`, [channel, payload]);

  it('hears every channel over one connection, again after losing it, and closes it when nobody listens', async () => {
    const db = connectPostgres({ connectionString: url });
    const heard: string[] = [];
    const reconnected: string[] = [];
    const on = (channel: string, who: string) =>
      db.listen(
        channel,
        (payload) => heard.push(`${who}:${payload}`),
        () => reconnected.push(who),
      );
    const stops = [await on('one', 'a'), await on('one', 'b'), await on('two', 'c'), await on('three', 'd')];
    expect(await listening()).toHaveLength(1);

    await notify('one', '1');
    await notify('two', '2');
    await notify('elsewhere', 'x');
    await eventually(async () => heard.length === 3);
    expect(heard.sort()).toEqual(['a:1', 'b:1', 'c:2']);

    // The connection killed: opened again, every channel listened to again, every listener told.
    const [pid] = await listening();
    await admin.query(`SELECT pg_terminate_backend($1)`, [pid]);
    await eventually(async () => reconnected.length === 4);
    expect(reconnected.sort()).toEqual(['a', 'b', 'c', 'd']);
    heard.length = 0;
    await notify('three', '3');
    await notify('one', '4');
    await eventually(async () => heard.length === 3);
    expect(heard.sort()).toEqual(['a:4', 'b:4', 'd:3']);

    // A channel's last listener gone: no longer heard; the others still are.
    heard.length = 0;
    await stops[2]!();
    await stops[0]!();
    await notify('two', '5');
    await notify('one', '6');
    await eventually(async () => heard.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual(['b:6']);

    await stops[1]!();
    await stops[3]!();
    await eventually(async () => (await listening()).length === 0);
    // Listening again after everyone left opens a connection again.
    const again = await on('two', 'e');
    await notify('two', '7');
    await eventually(async () => heard.includes('e:7'));
    await again();
    await db.close();
  });

  it('sends its LISTENs one at a time when many listen at once', async () => {
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(warning.message);
    process.on('warning', warned);
    const db = connectPostgres({ connectionString: url });
    const stops = await Promise.all(['p', 'q', 'r', 's'].map((channel) => db.listen(channel, () => {})));
    await Promise.all(stops.slice(0, 2).map((stop) => stop()));
    const more = await Promise.all(['t', 'u'].map((channel) => db.listen(channel, () => {})));
    await Promise.all([...stops.slice(2), ...more].map((stop) => stop()));
    await db.close();
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', warned);
    expect(warnings.filter((message) => message.includes('already executing a query'))).toEqual([]);
  });

  it('keeps trying to listen while the server cannot be reached, and stops when told', async () => {
    const errors: Error[] = [];
    const gone = connectPostgres({
      connectionString: 'postgres://postgres@127.0.0.1:1/none',
      onError: (e) => errors.push(e),
    });
    const stop = await gone.listen('one', () => {});
    await eventually(async () => errors.length >= 2);
    await stop();
    const tried = errors.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(errors).toHaveLength(tried);
    await gone.close();
  });
});
