import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '@portal/contracts/envelope';
import { unlockReadModels } from '@portal/platform/read-models/sealed-columns';
import { START, checkpointOf, type EventStore } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { openEventStore, pgliteDatabase } from '@portal/platform/testing/databases';
import { applyBatch } from '../src/apply.ts';
import { projections } from '../src/projections/index.ts';
import { prepareReadModels } from '../src/read-models.ts';
import { step, story } from './course-stories.ts';

/**
 * Projections gather a batch's writes and write them together (the attendance projection writes
 * all the batch's scans in one statement and recounts once). Where a batch ends must not change
 * what the read models say: any story of scans, refusals, voids, re-scans, a round cancelled and a
 * course deleted, applied as one batch, gives the same rows as the same story one event per batch.
 */

describe('batch boundaries do not change the read models', () => {
  // One database (the people's keys live beside the log): read models built as one batch in
  // 'rm', one event per batch in 'single'.
  let db: SqlDatabase;
  let store: EventStore;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, store, drop } = await openEventStore(pgliteDatabase));
    for (const schema of ['rm', 'single']) await prepareReadModels(db, schema, projections);
    await unlockReadModels(db);
  });
  afterAll(() => drop());

  const rowsOf = async (schema: string, course: string) => ({
    attendance: await db.query(
      `SELECT round_id, member_id, scanned_at, late, voided_at FROM ${schema}.attendance WHERE course_id = $1
        ORDER BY round_id, member_id`,
      [course],
    ),
    attempts: await db.query(
      `SELECT round_id, member_id, outcome, reason FROM ${schema}.scan_attempts WHERE course_id = $1
        ORDER BY round_id, member_id, server_time, outcome`,
      [course],
    ),
    rounds: await db.query(`SELECT id, attended FROM ${schema}.rounds WHERE id LIKE $1 ORDER BY id`, [`${course}-%`]),
    course: await db.query(`SELECT participate, total_attend, enrolled FROM ${schema}.courses WHERE id = $1`, [course]),
    accounts: await db.query(
      `SELECT id, status, full_name, username, updated_at FROM ${schema}.accounts WHERE id LIKE $1 ORDER BY id`,
      [`${course}-a%`],
    ),
    notifications: await db.query(
      `SELECT n.type, n.course_topic, n.subject_id, a.audience FROM ${schema}.notifications n
         JOIN ${schema}.notification_audience a ON a.notification_id = n.id
        WHERE n.course_id = $1 OR n.subject_id LIKE $2 ORDER BY n.id, a.audience`,
      [course, `${course}-%`],
    ),
  });

  const keptCounts = async (schema: string, course: string) => ({
    accounts: await db.query(
      `SELECT role, status, n::int AS n FROM ${schema}.account_counts WHERE n <> 0 ORDER BY role, status`,
    ),
    attempts: await db.query(
      `SELECT round_id, outcome, n::int AS n FROM ${schema}.scan_attempt_counts WHERE course_id = $1 AND n <> 0
        ORDER BY round_id, outcome`,
      [course],
    ),
    rounds: await db.query(
      `SELECT id, attended::int AS n FROM ${schema}.rounds WHERE course_id = $1 AND attended <> 0 ORDER BY id`,
      [course],
    ),
    members: await db.query(
      `SELECT member_id, scans AS n FROM ${schema}.course_members WHERE course_id = $1 ORDER BY member_id`,
      [course],
    ),
    course: await db.query(
      `SELECT participate::int AS members, total_attend::int AS scans FROM ${schema}.courses WHERE id = $1`,
      [course],
    ),
  });
  // What stands: not voided, in a round the courses read model has.
  const standing = (schema: string) =>
    `${schema}.attendance a JOIN ${schema}.rounds r ON r.id = a.round_id WHERE a.voided_at IS NULL`;
  const countedRows = async (schema: string, course: string) => ({
    accounts: await db.query(
      `SELECT role, status, count(*)::int AS n FROM ${schema}.accounts_sealed GROUP BY role, status ORDER BY role, status`,
    ),
    attempts: await db.query(
      `SELECT round_id, outcome, count(*)::int AS n FROM ${schema}.scan_attempts WHERE course_id = $1
        GROUP BY round_id, outcome ORDER BY round_id, outcome`,
      [course],
    ),
    rounds: await db.query(
      `SELECT a.round_id AS id, count(*)::int AS n FROM ${standing(schema)} AND a.course_id = $1
        GROUP BY a.round_id ORDER BY a.round_id`,
      [course],
    ),
    members: await db.query(
      `SELECT a.member_id, count(*)::int AS n FROM ${standing(schema)} AND a.course_id = $1
        GROUP BY a.member_id ORDER BY a.member_id`,
      [course],
    ),
    course: await db.query(
      `SELECT n.members, n.scans FROM ${schema}.courses c CROSS JOIN LATERAL (
         SELECT count(DISTINCT a.member_id)::int AS members, count(*)::int AS scans
           FROM ${standing(schema)} AND a.course_id = c.id) n
        WHERE c.id = $1`,
      [course],
    ),
  });

  let run = 0;
  let after = START;
  it('any story of 1 to 40 steps: one batch and one event per batch end with the same rows', async () => {
    await fc.assert(
      // courseLast: the course's own stream (created, rounds scheduled and cancelled, deleted)
      // after the scans, as a projector may see them when they come from different partitions.
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), fc.boolean(), async (steps, courseLast) => {
        const course = `story${run++}`;
        const events = await story(db, course, steps);
        const ofCourse = ([streamId]: [string, unknown]) => streamId === `course-${course}`;
        const ordered = courseLast ? [...events.filter((e) => !ofCourse(e)), ...events.filter(ofCourse)] : events;
        for (const [streamId, event] of ordered) {
          await store.append(streamId, [event], { expectedRevision: 'any' });
        }
        const log: StoredEvent[] = await store.readAll(after, 100_000);
        after = checkpointOf(log.at(-1)!);
        await applyBatch(db, 'rm', projections, log);
        for (const event of log) await applyBatch(db, 'single', projections, [event]);
        expect(await rowsOf('rm', course)).toEqual(await rowsOf('single', course));
        // The kept counts are the rows counted, however the events were batched.
        for (const schema of ['rm', 'single']) {
          expect(await keptCounts(schema, course), schema).toEqual(await countedRows(schema, course));
        }
      }),
      {
        numRuns: 40,
        // Orders a random search may miss: an approval before the registration it is for, a void
        // before a re-scan.
        examples: [
          [
            [
              { kind: 'approve', account: 0 },
              { kind: 'register', account: 0 },
              { kind: 'approve', account: 1 },
            ],
            false,
          ],
          [
            [
              { kind: 'scan', round: 0, member: 0 },
              { kind: 'void', round: 0, member: 0 },
              { kind: 'scan', round: 0, member: 0 },
            ],
            false,
          ],
          [
            [
              { kind: 'scan', round: 0, member: 0 },
              { kind: 'scan', round: 1, member: 0 },
              { kind: 'scan', round: 1, member: 1 },
              { kind: 'void', round: 1, member: 0 },
              { kind: 'cancel', round: 0 },
            ],
            true,
          ],
        ],
      },
    );
  });
});
