import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createRevocationTable, endSession, revokeSessions } from '../src/http/revocations.ts';
import { createHttpServer } from '../src/http/server-kit.ts';
import { connectPostgres } from '../src/store/postgres.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { postgresDatabase, postgresSkipReason } from '../src/testing/databases.ts';

const skipped = postgresSkipReason();
if (skipped) console.warn(`\n!!! ${skipped} (the test of sessions ended by another process needs it)\n`);

/**
 * A process remembers the sessions that stand (session-memory.ts), so a request pays no round trip
 * for its check; a session ended by another process (its logout, a revocation) must still stop
 * working here, told by the change's NOTIFY, and also when this process's listening connection
 * was lost at that moment.
 */
describe.skipIf(skipped)('sessions ended by another process, on PostgreSQL', () => {
  let elsewhere: SqlDatabase;
  let here: SqlDatabase;
  let app: FastifyInstance;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const opened = await postgresDatabase.open();
    ({ db: elsewhere, drop } = opened);
    await createRevocationTable(elsewhere);
    here = connectPostgres({ connectionString: opened.url! });
    app = await createHttpServer({
      title: 'here',
      sessionSecret: 'a-session-secret-of-enough-length',
      revocations: here,
    });
    app.post('/sign-in', async (request, reply) => ({
      token: await app.issueSession(reply, {
        accountId: (request.body as { id: string }).id,
        role: 'member',
        username: 'm',
      }),
    }));
    app.get('/me', async (request, reply) =>
      request.session ? { id: request.session.accountId } : reply.code(401).send(),
    );
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await here?.close();
    await drop?.();
  });

  const signIn = async (id: string) => {
    const token: string = (await app.inject({ method: 'POST', url: '/sign-in', payload: { id } })).json().token;
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      sid: string;
      iatMs: number;
    };
    return { token, key: { sessionId: claims.sid, accountId: id, issuedAtMs: claims.iatMs } };
  };
  const status = async (token: string) =>
    (await app.inject({ method: 'GET', url: '/me', headers: { authorization: `Bearer ${token}` } })).statusCode;
  /** The first status other than 200 within five seconds, or 200. */
  const refusedWithin5s = async (token: string) => {
    for (let i = 0; i < 100; i++) {
      const now = await status(token);
      if (now !== 200) return now;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return 200;
  };

  it('refuses a session another process ended or revoked, and keeps the others', async () => {
    const ended = await signIn('a0000000000000000000000a');
    const revoked = await signIn('b0000000000000000000000b');
    const kept = await signIn('c0000000000000000000000c');
    for (const { token } of [ended, revoked, kept, ended, revoked, kept]) expect(await status(token)).toBe(200);

    await endSession(elsewhere, ended.key);
    await elsewhere.transaction((tx) => revokeSessions(tx, revoked.key.accountId));
    expect(await refusedWithin5s(ended.token)).toBe(401);
    expect(await refusedWithin5s(revoked.token)).toBe(401);
    expect(await status(kept.token)).toBe(200);
  });

  it('refuses a session ended while this process could not hear it', async () => {
    const session = await signIn('d0000000000000000000000d');
    expect(await status(session.token)).toBe(200);
    expect(await status(session.token)).toBe(200);

    // This process's listening connection is cut; the session ends before it is back.
    const listening = async () =>
      (
        await elsewhere.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query ~* '^LISTEN'`,
        )
      ).map(({ pid }) => pid);
    const [pid] = await listening();
    expect(pid).toBeDefined();
    await elsewhere.query(`SELECT pg_terminate_backend($1)`, [pid]);
    while ((await listening()).includes(pid!)) await new Promise((resolve) => setTimeout(resolve, 5));
    await endSession(elsewhere, session.key);

    expect(await refusedWithin5s(session.token)).toBe(401);
  });
});
