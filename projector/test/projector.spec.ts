import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemberApproved, RegistrationDeleted } from '@portal/contracts/accounts/account.events';
import { type EventStore, START } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { memberRegisteredEvent } from '@portal/platform/testing/accounts';
import { openEventStore, testDatabases } from '@portal/platform/testing/databases';
import { projections } from '../src/projections/index.ts';
import { readModelLag } from '@portal/platform/read-models/checkpoint';
import { unlockReadModels } from '@portal/platform/read-models/sealed-columns';
import { QUERY_INDEX } from '@portal/platform/read-models/table';
import { applyBatch } from '../src/apply.ts';
import { prepareReadModels } from '../src/read-models.ts';
import { startProjector } from '../src/projector.ts';
import { rebuildReadModels } from '../src/rebuild.ts';

const at = '2026-11-01T08:00:00.000Z';
let n = 0;
async function registration(db: SqlDatabase) {
  n++;
  const id = `aaaaaaaaaaaaaaaaaaaa${String(n).padStart(4, '0')}`;
  const username = `person${n}`;
  return { id, username, event: await memberRegisteredEvent(db, id, { username }) };
}

const rows = (db: SqlDatabase, schema = 'rm') =>
  db.query<{ id: string; status: string; username: string }>(
    `SELECT id, status, username FROM ${schema}.accounts ORDER BY id`,
  );

/** The read models' indexes: how each is defined, and whether it is marked as read by queries only. */
const indexes = (db: SqlDatabase, schema = 'rm') =>
  db.query<{ name: string; definition: string; mark: string | null }>(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition, obj_description(i.oid, 'pg_class') AS mark
       FROM pg_class i JOIN pg_namespace n ON n.oid = i.relnamespace
      WHERE n.nspname = $1 AND i.relkind = 'i' ORDER BY i.relname`,
    [schema],
  );

/** The read models' tables no ANALYZE has looked at (the planner would guess their size). */
const unanalysed = (db: SqlDatabase) =>
  db.query(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'rm' AND c.relkind = 'r' AND c.reltuples < 0`,
  );

describe.each(testDatabases())('projector on $name', (database) => {
  let db: SqlDatabase;
  let store: EventStore;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, store, drop } = await openEventStore(database));
    await unlockReadModels(db); // the test reads the views as the query side does
  });
  afterAll(() => drop());

  /** One more registration in the log, projected until caught up: the accounts read model as it stands. */
  async function projectedRegistration() {
    const person = await registration(db);
    await store.append(`account-${person.id}`, [person.event], { expectedRevision: 'no_stream' });
    const projector = await startProjector({ source: store, target: db, projections, pollMs: 50 });
    await expect.poll(async () => (await projector.health()).lagEvents, { timeout: 3000 }).toBe(0);
    await projector.stop();
    return rows(db);
  }

  it('keeps the registration read model up to date and reports when it has caught up', async () => {
    const projector = await startProjector({ source: store, target: db, projections, pollMs: 50 });
    try {
      const a = await registration(db);
      const b = await registration(db);
      await store.append(`account-${a.id}`, [a.event], { expectedRevision: 'no_stream' });
      await store.append(`account-${b.id}`, [b.event], { expectedRevision: 'no_stream' });
      await store.append(`account-${a.id}`, [MemberApproved.create({ approvedAt: at })], { expectedRevision: 0 });
      await store.append(`account-${b.id}`, [RegistrationDeleted.create({ deletedAt: at })], { expectedRevision: 0 });
      await expect.poll(async () => (await projector.health()).lagEvents, { timeout: 3000 }).toBe(0);
      expect(await rows(db)).toEqual(expect.arrayContaining([{ id: a.id, status: 'approved', username: a.username }]));
      expect((await rows(db)).find((row) => row.id === b.id)).toBeUndefined();
      expect(await projector.health()).toMatchObject({ running: true, lastError: null, lagSeconds: 0 });
    } finally {
      await projector.stop();
    }
  });

  it('shows lag while stopped, and applies a batch delivered twice only once', async () => {
    const c = await registration(db);
    await store.append(`account-${c.id}`, [c.event], { expectedRevision: 'no_stream' });
    const approved = await store.append(`account-${c.id}`, [MemberApproved.create({ approvedAt: at })], {
      expectedRevision: 0,
    });
    const projector = await startProjector({ source: store, target: db, projections, pollMs: 50 });
    await expect.poll(async () => (await projector.health()).lagEvents, { timeout: 3000 }).toBe(0);
    await projector.stop();

    // Stopped: a new event is counted as lag.
    const d = await registration(db);
    await store.append(`account-${d.id}`, [d.event], { expectedRevision: 'no_stream' });
    expect(await projector.health()).toMatchObject({ running: false, lagEvents: 1 });
    expect((await readModelLag(store, db, 'rm')).lagEvents).toBe(1);
    const restarted = await startProjector({ source: store, target: db, projections, pollMs: 60_000 });
    await expect.poll(async () => (await restarted.health()).lagEvents, { timeout: 3000 }).toBe(0);
    await restarted.stop();

    // Redelivering everything changes nothing: the checkpoint guards the rows.
    const before = await rows(db);
    const everything = await store.readAll(START, 10_000);
    await applyBatch(db, 'rm', projections, everything);
    expect(await rows(db)).toEqual(before);
    expect(approved.position).toBeGreaterThan(0);
  });

  it('rebuilds the read models from the log into fresh tables equal to the live ones', async () => {
    const live = await projectedRegistration();
    // Damage the live model: the rebuild must not copy it, but replay the log.
    await db.query(`UPDATE rm.accounts_sealed SET status = 'broken'`);
    const built = await indexes(db);
    const progress: number[] = [];
    let indexing = 0;
    const { events } = await rebuildReadModels({
      db,
      store,
      projections,
      onProgress: (done) => progress.push(done),
      onIndexing: () => (indexing = progress.length),
    });
    expect(events).toBe((await store.readAll(START, 10_000)).length);
    expect(progress.at(-1)).toBe(events);
    expect(await rows(db)).toEqual(live);
    // The indexes only queries read were built after the log was read, and are all there again,
    // marked as before; those the projector itself reads were there all along.
    expect(indexing).toBeGreaterThan(0);
    expect(await indexes(db)).toEqual(built);
    const mark = (name: string) => built.find((index) => index.name === name)?.mark;
    expect(mark('scan_attempts_member')).toBe(QUERY_INDEX);
    expect(mark('accounts_search_grams')).toBe(QUERY_INDEX);
    expect(mark('attendance_course')).toBeNull();
    expect(mark('rounds_course')).toBeNull();
    expect(await unanalysed(db)).toEqual([]);
    const schemas = await db.query(`SELECT 1 FROM information_schema.schemata WHERE schema_name = 'rm_next'`);
    expect(schemas).toHaveLength(0);
  });

  it('fails a rebuild whose counting fails: no more index started, failed once those under way end, the live read models left', async () => {
    const live = await projectedRegistration();
    // The counts across projections fail at once, while the indexes only queries read are being built beside them.
    const failing = projections.map((projection) =>
      projection.afterRebuild
        ? { ...projection, afterRebuild: () => Promise.reject(new Error('the counting failed')) }
        : projection,
    );
    await expect(rebuildReadModels({ db, store, projections: failing })).rejects.toThrow('the counting failed');
    const stopped = await indexes(db, 'rm_next');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Nothing of the rebuild goes on after it failed, and no more index was started once the
    // counting had failed: of the query indexes, only those under way then (one a lane, two at
    // most, or another a lane on a slow machine) against all of them (16) without the stop.
    expect(await indexes(db, 'rm_next')).toEqual(stopped);
    const queryOnly = (all: { mark: string | null }[]) => all.filter((index) => index.mark === QUERY_INDEX).length;
    expect(queryOnly(await indexes(db))).toBeGreaterThan(8);
    expect(queryOnly(stopped)).toBeLessThanOrEqual(4);
    expect(await rows(db)).toEqual(live);
  });

  it('rebuilds read models at start when they were built by another version of a projection', async () => {
    const live = await projectedRegistration();
    // As if the rows had been written by an older accounts projection.
    await db.query(`UPDATE rm.accounts_sealed SET status = 'old-shape'`);
    await db.query(`UPDATE rm.projection_versions SET version = version - 1 WHERE name = 'accounts'`);
    const progress: number[] = [];
    const restarted = await startProjector({
      source: store,
      target: db,
      projections,
      pollMs: 50,
      onRebuildProgress: (done) => progress.push(done),
    });
    await restarted.stop();
    expect(progress.length).toBeGreaterThan(0);
    expect(await rows(db)).toEqual(live);
  });

  it('rebuilds only the projection whose version changed, with those rebuilt together with it', async () => {
    const live = await projectedRegistration();
    const built = await indexes(db);
    // Marks in three read models: only what is rebuilt from the log loses its mark.
    await db.query(`UPDATE rm.accounts_sealed SET status = 'marked'`);
    await db.query(`INSERT INTO rm.notify_courses (course_id, creator, topic) VALUES ('mark', 'm', 'm')`);
    await db.query(`INSERT INTO rm.rounds (id, course_id, starts_at, ends_at) VALUES ('mark', 'm', now(), now())`);
    await db.query(`UPDATE rm.projection_versions SET version = version - 1 WHERE name = 'accounts'`);
    const progress: number[] = [];
    const restarted = await startProjector({
      source: store,
      target: db,
      projections,
      pollMs: 50,
      onRebuildProgress: (done) => progress.push(done),
    });
    expect(progress.length).toBeGreaterThan(0);
    expect(await rows(db)).toEqual(live);
    expect(await indexes(db)).toEqual(built);
    expect(await db.query(`SELECT 1 FROM rm.notify_courses WHERE course_id = 'mark'`)).toHaveLength(1);
    expect(await db.query(`SELECT 1 FROM rm.rounds WHERE id = 'mark'`)).toHaveLength(1);
    await restarted.stop();

    // Attendance counts are kept in the courses read model: the two are rebuilt together.
    await db.query(`UPDATE rm.projection_versions SET version = version - 1 WHERE name = 'attendance'`);
    const again = await startProjector({ source: store, target: db, projections, pollMs: 50 });
    await again.stop();
    expect(await indexes(db)).toEqual(built);
    expect(await db.query(`SELECT 1 FROM rm.rounds WHERE id = 'mark'`)).toHaveLength(0);
    expect(await db.query(`SELECT 1 FROM rm.notify_courses WHERE course_id = 'mark'`)).toHaveLength(1);
    expect(await rows(db)).toEqual(live);
    expect(await db.query(`SELECT name, version FROM rm.projection_versions ORDER BY name`)).toEqual(
      [...projections].sort((a, b) => a.name.localeCompare(b.name)).map((p) => ({ name: p.name, version: p.version })),
    );
  });

  it('refuses to rebuild a projection without the one it is rebuilt with, and leaves the read models as they are', async () => {
    const live = await projectedRegistration();
    const attendance = projections.filter((projection) => projection.name === 'attendance');
    await expect(rebuildReadModels({ db, store, projections: attendance })).rejects.toThrow(
      'attendance is rebuilt with courses: rebuild them together',
    );
    expect(await rows(db)).toEqual(live);
  });

  it('replaces read models laid out by an earlier version, plain tables where views are now', async () => {
    const live = await projectedRegistration();
    // As the accounts read model was before its personal columns were sealed.
    await db.query(`DROP VIEW rm.accounts`);
    await db.query(`DROP TABLE rm.accounts_sealed`);
    await db.query(`CREATE TABLE rm.accounts (id text PRIMARY KEY, username text NOT NULL, status text NOT NULL)`);
    await db.query(`UPDATE rm.projection_versions SET version = 4 WHERE name = 'accounts'`);
    const restarted = await startProjector({ source: store, target: db, projections, pollMs: 50 });
    await restarted.stop();
    expect(await rows(db)).toEqual(live);
  });

  it('prepares read models idempotently', async () => {
    await prepareReadModels(db, 'rm', projections);
    await prepareReadModels(db, 'rm', projections);
  });
});
