import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { KeptStatements, isKept, isReshaped, mayReshape } from './kept-statements.ts';
import { sharedListener } from './pg-listener.ts';
import type { Sql, SqlDatabase } from './sql.ts';

// Keep 64-bit integers and numerics exact as strings; callers convert what they know is small.
export interface PostgresOptions {
  connectionString: string;
  max?: number;
  /** Called when the pool or the listening connection reports a problem it recovers from. */
  onError?: (error: Error) => void;
}

export function connectPostgres(options: PostgresOptions): SqlDatabase {
  // No JIT compiling: every statement here is short, and compiling one costs 50-100 ms whenever
  // the planner's estimate passes jit_above_cost (as it does on tables filled since their last
  // ANALYZE, such as a rebuild's). A connection string's own `options` still wins.
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    options: '-c jit=off',
  });
  const report = options.onError ?? (() => {});
  // An idle client that loses its server emits 'error' on the pool; without a handler it crashes.
  pool.on('error', report);
  const listen = sharedListener(options.connectionString, report);
  // Each connection keeps the statements run on it prepared (kept-statements.ts) under names
  // unique in this process, so a name never comes back with another text: on the scan benchmark
  // that cut PostgreSQL's CPU per scan by a third to a half. Only statements with parameters: pg sends one without
  // by the simple protocol, which runs a script of several statements (a schema's) as well.
  const statements = new WeakMap<pg.PoolClient, KeptStatements<{ name: string }>>();
  let named = 0;
  const keptOn = (client: pg.PoolClient) => {
    let kept = statements.get(client);
    if (!kept) statements.set(client, (kept = new KeptStatements()));
    return kept;
  };
  /** `transaction`, when the statement runs in one: whether a statement before it there may have changed tables' shape. */
  const run = async <Row>(
    client: pg.PoolClient,
    text: string,
    params?: readonly unknown[],
    transaction?: { reshaped: boolean },
  ) => {
    if (mayReshape(text)) {
      // Kept statements may no longer fit their tables: prepared anew after this one, and in a
      // transaction (which may yet be rolled back) only after it ends.
      statements.get(client)?.forgetAll();
      if (transaction) transaction.reshaped = true;
    }
    const kept = params?.length && isKept(text) && !transaction?.reshaped ? keptOn(client) : undefined;
    const name = kept && (kept.get(text) ?? kept.keep(text, { name: `portal_${++named}` })).name;
    try {
      return (await client.query({ text, values: params as unknown[], name })).rows as Row[];
    } catch (error) {
      if (kept && isReshaped(error)) kept.forget(text);
      throw error;
    }
  };

  // Each pooled connection is brought up to date when it is taken, before any transaction starts:
  // its session settings (a setting added later reaches connections opened earlier too), and the
  // statements it no longer keeps closed.
  const settings = new Map<string, string>();
  let settingsVersion = 0;
  const settled = new WeakMap<pg.PoolClient, number>();
  const update = async (client: pg.PoolClient) => {
    if (settingsVersion > 0 && settled.get(client) !== settingsVersion) {
      for (const [name, value] of settings) await client.query(`SELECT set_config($1, $2, false)`, [name, value]);
      settled.set(client, settingsVersion);
    }
    const closing = statements.get(client)?.closing.splice(0) ?? [];
    // pg notes each name the server prepared on the connection (it would bind a closed one
    // unparsed); a name it did not note was never prepared (refused in a broken transaction).
    const parsed = (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection
      .parsedStatements;
    const prepared = closing.filter((name) => name in parsed);
    for (const name of prepared) delete parsed[name];
    if (prepared.length > 0) await client.query(prepared.map((name) => `DEALLOCATE ${name}`).join('; '));
  };
  // A connection lost while checked out (killed, a failover) emits 'error' on its client, which
  // pg-pool listens for only while the client is idle: without a listener of ours it would crash
  // the process. The query in flight or the next one fails too, and the client is not reused.
  const take = async () => {
    const client = await pool.connect();
    const lost = (error: Error) => report(error);
    client.on('error', lost);
    const done = (error?: Error) => {
      client.off('error', lost);
      client.release(error);
    };
    try {
      await update(client);
    } catch (error) {
      done(error as Error);
      throw error;
    }
    return { client, done };
  };

  async function query<Row>(text: string, params?: readonly unknown[], again = true): Promise<Row[]> {
    const { client, done } = await take();
    try {
      const rows = await run<Row>(client, text, params);
      done();
      return rows;
    } catch (error) {
      // Refused at its bind, before it ran, because its tables changed shape: run again, prepared anew.
      if (again && isReshaped(error)) {
        done();
        return query(text, params, false);
      }
      done(error as Error); // as pool.query does: a failed connection is not reused
      throw error;
    }
  }

  return {
    kind: 'postgres',
    stats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    query: (text, params) => query(text, params),
    async useSessionSetting(name, value) {
      settings.set(name, value);
      settingsVersion++;
    },
    async transaction(work) {
      const { client, done } = await take();
      const shape = { reshaped: false };
      const tx: Sql = {
        query: (text, params) => run(client, text, params, shape),
        copyIn: (table, columns, text) =>
          pipeline(Readable.from([text]), client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`))),
      };
      try {
        await client.query('BEGIN');
        const result = await work(tx);
        await client.query('COMMIT');
        done();
        return result;
      } catch (error) {
        // A broken connection must not go back to the pool.
        await client.query('ROLLBACK').then(
          () => done(),
          (rollbackError: Error) => done(rollbackError),
        );
        throw error;
      }
    },
    listen: (channel, onNotify, onReconnect, onLost) => listen(channel, { onNotify, onReconnect, onLost }),
    close: () => pool.end(),
  };
}
