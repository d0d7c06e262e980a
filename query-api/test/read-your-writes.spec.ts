import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountStream } from '@portal/contracts/accounts/account.events';
import { createHttpServer } from '@portal/platform/http/server-kit';
import { createEventStore } from '@portal/platform/store/event-store';
import type { EventStore } from '@portal/platform/store/port';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { memberRegisteredEvent } from '@portal/platform/testing/accounts';
import { testDatabases, testUploadsDir } from '@portal/platform/testing/databases';
import { projections } from '@portal/projector/projections/index';
import { applyBatch } from '@portal/projector/apply';
import { prepareReadModels } from '@portal/projector/read-models';
import { queryApi } from '../src/app.ts';

/**
 * The query API alone, with the projector driven by hand, so the test decides when the read
 * models catch up.
 */
describe.each(testDatabases())('read-your-writes on $name', (database) => {
  let db: SqlDatabase;
  let store: EventStore;
  let drop: () => Promise<void>;
  let app: Awaited<ReturnType<typeof createHttpServer>>;
  let adminToken: string;

  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await createEventStoreSchema(db);
    await prepareReadModels(db, 'rm', projections);
    store = createEventStore(db);
    app = await createHttpServer({ title: 'test', sessionSecret: 'query-test-secret-of-enough-length' });
    await app.register(queryApi, { db, store, uploadsDir: testUploadsDir(), passSecret: 'test-pass-secret' });
    await app.ready();
    adminToken = app.jwt.sign({ sub: 'admin-1', role: 'admin', username: 'admin01', iatMs: Date.now() });
  });
  afterAll(async () => {
    await app.close();
    await drop();
  });

  async function register() {
    const id = crypto.randomUUID();
    const result = await store.append(accountStream(id), [await memberRegisteredEvent(db, id)], {
      expectedRevision: 'no_stream',
    });
    return { id, position: result.position };
  }
  const catchUp = async () => applyBatch(db, 'rm', projections, await store.readAll(await checkpoint(), 1000));
  const checkpoint = async () => {
    const [row] = await db.query<{ transaction_id: string; position: string }>(
      `SELECT transaction_id::text, position::text FROM rm.checkpoints`,
    );
    return { transactionId: row!.transaction_id, position: Number(row!.position) };
  };
  const report = (minPosition?: number) =>
    app.inject({
      method: 'GET',
      url: '/api/admin/registration',
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(minPosition ? { 'x-min-position': String(minPosition) } : {}),
      },
    });

  it('waits for the projector to reach the position a command answered', async () => {
    const { id, position } = await register();
    const answer = report(position);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await catchUp();
    const response = await answer;
    expect(response.headers['x-read-position-reached']).toBe('true');
    expect(response.json().members.map((m: { _id: string }) => m._id)).toContain(id);
  });

  it('gives up after about two seconds and says the answer may be stale', async () => {
    const { id, position } = await register();
    const started = Date.now();
    const response = await report(position);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(response.headers['x-read-position-reached']).toBe('false');
    expect(response.json().members.map((m: { _id: string }) => m._id)).not.toContain(id);
    await catchUp();
  });

  it('takes the position from ?minPosition= too, on every query, not only those whose schema names it', async () => {
    // The outbox's query schema knows only its paging; the documented parameter must still count.
    const { position } = await register();
    const answer = app.inject({
      method: 'GET',
      url: `/api/admin/emails?minPosition=${position}`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await catchUp();
    expect((await answer).headers['x-read-position-reached']).toBe('true');
  });

  it('answers at once without a position, and for a position the log does not hold', async () => {
    expect((await report()).headers['x-read-position-reached']).toBeUndefined();
    expect((await report(10_000_000)).headers['x-read-position-reached']).toBe('true');
  });
});
