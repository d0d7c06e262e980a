import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventStore } from '@portal/platform/store/event-store';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { testDatabases } from '@portal/platform/testing/databases';
import { courseOfRound, createRoundIndex, indexRound } from '../src/courses/round-index.ts';

/**
 * A scan names only its round (spec 001 section 7): the command side finds the course in its own
 * index, which a database made before the index existed has to get from the log once, when the
 * index is made (no longer at every start, where it read every event of the log by its type).
 */
describe.each(testDatabases())("the rounds' index of their courses on $name", (database) => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await createEventStoreSchema(db);
    await db.query(`CREATE SCHEMA IF NOT EXISTS cmd`);
  });
  afterAll(() => drop());

  it('is filled from the log for the rounds scheduled before it was made, then by each round', async () => {
    const store = createEventStore(db);
    for (const [course, round] of [
      ['c-old', 'r-old-1'],
      ['c-old', 'r-old-2'],
      ['c-other', 'r-other'],
    ] as const) {
      await store.append(`course-${course}`, [{ type: 'RoundScheduled', schemaVersion: 1, data: { roundId: round } }], {
        expectedRevision: 'any',
      });
    }
    await createRoundIndex(db);
    expect(await courseOfRound(db, 'r-old-1')).toBe('c-old');
    expect(await courseOfRound(db, 'r-old-2')).toBe('c-old');
    expect(await courseOfRound(db, 'r-other')).toBe('c-other');
    expect(await courseOfRound(db, 'r-new')).toBeNull();

    // Made already: the next start keeps it, and a round scheduled since has its own row.
    await indexRound(db, 'r-new', 'c-new');
    await createRoundIndex(db);
    expect(await courseOfRound(db, 'r-new')).toBe('c-new');
    expect(await courseOfRound(db, 'r-old-2')).toBe('c-old');
  });
});
