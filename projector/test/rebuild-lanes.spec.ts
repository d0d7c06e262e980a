import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlockReadModels } from '@portal/platform/read-models/sealed-columns';
import type { StoredEvent } from '@portal/contracts/envelope';
import { type EventStore, START } from '@portal/platform/store/port';
import type { Sql, SqlDatabase } from '@portal/platform/store/sql';
import { openEventStore, testDatabases } from '@portal/platform/testing/databases';
import { projections } from '../src/projections/index.ts';
import { rebuildReadModels } from '../src/rebuild.ts';
import { courseOf, retryFault } from '../src/apply.ts';
import { buildFromLog, readModelDifferences, readModelSizes } from '../src/testing/read-model-copies.ts';
import type { Projection } from '../src/projection.ts';
import { step, story } from './course-stories.ts';

/**
 * A rebuild applies each projection on its own connection, apart from the others (on PostgreSQL
 * the attendance and the courses each in two lanes, a share of the courses each), and counts
 * the courses' and rounds' attendance once the whole log is in (Projection.afterRebuild). What it
 * builds must be what a projector following the log builds, however far one projection runs
 * ahead of another: many stories (scans, voids, re-scans, rounds cancelled, courses deleted,
 * accounts changed and erased), many small batches, on both databases.
 */
/** The projections, `name`'s with `before` run ahead of its apply for each event (to fail it there). */
const applyingFirst = (name: string, before: (sql: Sql, event: StoredEvent) => Promise<void> | void) =>
  projections.map((projection): Projection =>
    projection.name === name
      ? {
          ...projection,
          apply: async (sql, schema, event, personal, batch) => {
            await before(sql, event);
            await projection.apply(sql, schema, event, personal, batch);
          },
        }
      : projection,
  );

describe.each(testDatabases())('a rebuild on $name', (database) => {
  let db: SqlDatabase;
  let store: EventStore;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, store, drop } = await openEventStore(database));
    await unlockReadModels(db); // compared through the views, as the query side reads them
  });
  afterAll(() => drop());

  /** `runs` generated stories appended to the log (fixed by `seed`), and the live read models built from it in 'rm'. */
  async function storiesBuiltLive(prefix: string, seed: number, runs: number, minLength: number) {
    const stories = fc.sample(fc.array(step, { minLength, maxLength: 40 }), { seed, numRuns: runs });
    for (const [i, steps] of stories.entries()) {
      for (const [streamId, event] of await story(db, `${prefix}${i}`, steps)) {
        await store.append(streamId, [event], { expectedRevision: 'any' });
      }
    }
    await buildFromLog(db, store, 'rm');
  }

  it('builds, in small batches, exactly the read models a projector following the log built', async () => {
    await storiesBuiltLive('lanes', 2026, 25, 1);
    const progress: number[] = [];
    const { events } = await rebuildReadModels({
      db,
      store,
      projections,
      schema: 'rebuilt',
      batch: 7,
      onProgress: (done) => progress.push(done),
    });

    expect(await readModelDifferences(db, 'rm', 'rebuilt')).toEqual([]);
    // The counts were there to get wrong: rounds and courses with attendance, some voided.
    const [counted] = await db.query<{ rounds: number; courses: number; voided: number }>(
      `SELECT (SELECT count(*)::int FROM rebuilt.rounds WHERE attended > 0) AS rounds,
              (SELECT count(*)::int FROM rebuilt.courses WHERE participate > 0 AND total_attend > participate) AS courses,
              (SELECT count(*)::int FROM rebuilt.attendance WHERE voided_at IS NOT NULL) AS voided`,
    );
    expect(counted!.rounds).toBeGreaterThan(10);
    expect(counted!.courses).toBeGreaterThan(3);
    expect(counted!.voided).toBeGreaterThan(0);
    // Progress moved batch by batch (on PostgreSQL span by span, up to 8 batches of the log, as
    // the scans are written in the database), in order, to every event of the log.
    expect(progress.length).toBeGreaterThan(events / (database.name === 'postgres' ? 7 * 8 : 7));
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(events);
  });

  it("gives each projection every event of the types it reads but those it writes in the database, once, and each course's in the log's order", async () => {
    await storiesBuiltLive('shares', 11, 10, 5);
    const log = await store.readAll(START, 100_000);
    // Certificates as a projection that names no types: it is given every event.
    const given = new Map<string, StoredEvent[]>();
    const recording = projections.map((projection): Projection => {
      const seen: StoredEvent[] = [];
      given.set(projection.name, seen);
      return {
        ...projection,
        ...(projection.name === 'certificates' && { reads: undefined }),
        apply: async (sql, schema, event, personal, batch) => {
          seen.push(event);
          await projection.apply(sql, schema, event, personal, batch);
        },
      };
    });
    await rebuildReadModels({ db, store, projections: recording, schema: 'shared', batch: 9 });

    for (const projection of recording) {
      const seen = given.get(projection.name)!;
      // But those it writes in the database itself on PostgreSQL (Projection.rebuildInDatabase).
      const inDatabase = database.name === 'postgres' ? projection.rebuildInDatabase?.types : undefined;
      const expected = log.filter(
        (event) => (!projection.reads || projection.reads.has(event.type)) && !inDatabase?.has(event.type),
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(seen.map((event) => event.position).sort((a, b) => a - b)).toEqual(expected.map((e) => e.position));
      for (const course of new Set(expected.map(courseOf))) {
        const ofCourse = (events: StoredEvent[]) => events.filter((event) => courseOf(event) === course);
        expect(ofCourse(seen).map((event) => event.position)).toEqual(ofCourse(expected).map((e) => e.position));
      }
    }
    expect(given.get('certificates')).toHaveLength(log.length);
    expect(await readModelDifferences(db, 'rm', 'shared')).toEqual([]);
  });

  /**
   * The notifications (two lanes on PostgreSQL) throw at one event: the rebuild records the fault
   * and goes on, each lane noting what it passes by from then on, and once mended the retries
   * bring them to what a projector following the log built. An event both applied and noted (a
   * lane told of the fault halfway through a batch) would be applied twice: a notification of a
   * round scheduled before members enrolled would go to them.
   */
  it('sets aside a projection that throws, notes what it passes by, and once mended it catches up', async () => {
    await storiesBuiltLive('faulty', 5, 10, 10);
    const notifications = projections.find((projection) => projection.name === 'notifications')!;
    const read = (await store.readAll(START, 100_000)).filter((event) => notifications.reads!.has(event.type));
    const doomed = read[Math.floor(read.length / 2)]!.position;
    let mended = false;
    const faulty = applyingFirst('notifications', (_sql, event) => {
      if (!mended && event.position === doomed) throw new Error('not today');
    });
    await rebuildReadModels({ db, store, projections: faulty, schema: 'faulty', batch: 7 });
    expect(
      await db.query(`SELECT name, failed_position::int AS position, error FROM faulty.projection_faults`),
    ).toEqual([{ name: 'notifications', position: doomed, error: 'not today' }]);
    const [missed] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM faulty.projection_missed WHERE name = 'notifications' AND position > $1`,
      [doomed],
    );
    expect(missed!.n).toBeGreaterThan(0);

    mended = true;
    for (let tries = 0; (await retryFault(db, 'faulty', faulty, 'notifications')) !== 'rejoined'; tries++) {
      expect(tries).toBeLessThan(100);
    }
    expect(await readModelDifferences(db, 'rm', 'faulty')).toEqual([]);
  });

  /**
   * A rebuild inserts a batch's attendance plainly and writes it as the upsert only when a row is
   * there already (attendance/projection.ts, insertRebuiltPresent): here a member scanned, voided
   * and scanned again in round 0, one event a batch, so the scan again meets the voided row.
   * Worked out by hand: m0 is present in r0 (the void undone by the scan again), m1 in r1, nobody
   * in r2.
   */
  it('writes a scan again after a void, in a later batch, over the voided row', async () => {
    const steps = [
      { kind: 'scan', round: 0, member: 0 },
      { kind: 'void', round: 0, member: 0 },
      { kind: 'scan', round: 0, member: 0 },
      { kind: 'scan', round: 1, member: 1 },
    ] as const;
    for (const [streamId, event] of await story(db, 'again', [...steps])) {
      await store.append(streamId, [event], { expectedRevision: 'any' });
    }
    await buildFromLog(db, store, 'rm');
    await rebuildReadModels({ db, store, projections, schema: 'again_rebuilt', batch: 1 });

    expect(
      await db.query(
        `SELECT round_id, member_id, voided_at IS NULL AS present FROM again_rebuilt.attendance
          WHERE course_id = 'again' ORDER BY round_id, member_id`,
      ),
    ).toEqual([
      { round_id: 'again-r0', member_id: 'again-m0', present: true },
      { round_id: 'again-r1', member_id: 'again-m1', present: true },
    ]);
    expect(
      await db.query(`SELECT id, attended FROM again_rebuilt.rounds WHERE course_id = 'again' ORDER BY id`),
    ).toEqual([
      { id: 'again-r0', attended: 1 },
      { id: 'again-r1', attended: 1 },
      { id: 'again-r2', attended: 0 },
    ]);
    expect(await readModelDifferences(db, 'rm', 'again_rebuilt')).toEqual([]);
  });

  /**
   * A rebuild copies a batch's present rows as they come, scans of a round cancelled or a course
   * deleted earlier in the log included, and removes those before it counts (counts.ts,
   * recountAll). One event a batch, so each late scan is written after its round or course closed.
   * Worked out by hand: in 'late', only m2's scan in r1 stands (m0's went with the cancellation
   * of r0, m1's came after it); in 'gone', nothing (the course deleted, then m1 scanned).
   */
  it('leaves out scans of a round cancelled or a course deleted earlier in the log', async () => {
    const stories = {
      late: [
        { kind: 'scan', round: 0, member: 0 },
        { kind: 'cancel', round: 0 },
        { kind: 'scan', round: 0, member: 1 },
        { kind: 'scan', round: 1, member: 2 },
      ],
      gone: [{ kind: 'scan', round: 0, member: 0 }, { kind: 'delete' }, { kind: 'scan', round: 1, member: 1 }],
    } as const;
    for (const [course, steps] of Object.entries(stories)) {
      for (const [streamId, event] of await story(db, course, [...steps])) {
        await store.append(streamId, [event], { expectedRevision: 'any' });
      }
    }
    await buildFromLog(db, store, 'rm');
    await rebuildReadModels({ db, store, projections, schema: 'closed_rebuilt', batch: 1 });

    expect(
      await db.query(
        `SELECT round_id, member_id FROM closed_rebuilt.attendance
          WHERE course_id IN ('late', 'gone') ORDER BY round_id, member_id`,
      ),
    ).toEqual([{ round_id: 'late-r1', member_id: 'late-m2' }]);
    expect(
      await db.query(`SELECT id, attended FROM closed_rebuilt.rounds WHERE course_id = 'late' ORDER BY id`),
    ).toEqual([
      { id: 'late-r1', attended: 1 },
      { id: 'late-r2', attended: 0 },
    ]);
    expect(await readModelDifferences(db, 'rm', 'closed_rebuilt')).toEqual([]);
  });

  // Only PostgreSQL can lose one connection while the others go on (PGlite has one).
  if (database.name === 'postgres') {
    it('fails when a connection is lost, leaves the live read models as they were and no projection writing, and can start again', async () => {
      await storiesBuiltLive('lost', 7, 10, 10);
      const live = await readModelSizes(db, 'rm');
      // At its last event sixty or more before the log's end (it is given only the events it
      // reads), the accounts projection's connection is killed under it.
      const reads = projections.find((projection) => projection.name === 'accounts')!.reads!;
      const log = await store.readAll(START, 100_000);
      const doomed = log
        .slice(0, -60)
        .filter((event) => reads.has(event.type))
        .at(-1)!.position;
      const fatal = applyingFirst('accounts', async (sql, event) => {
        if (event.position === doomed) await sql.query('SELECT pg_terminate_backend(pg_backend_pid())');
      });
      await expect(rebuildReadModels({ db, store, projections: fatal, batch: 7 })).rejects.toThrow();
      // Every other projection has stopped writing by the time the rebuild says it failed.
      const left = await readModelSizes(db, 'rm_next');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await readModelSizes(db, 'rm_next')).toEqual(left);
      expect(await readModelSizes(db, 'rm')).toEqual(live);
      // Started again at once, it builds what the projector built.
      await rebuildReadModels({ db, store, projections, schema: 'again', batch: 7 });
      expect(await readModelDifferences(db, 'rm', 'again')).toEqual([]);
    });
  }
});
