import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { openEventStore, testDatabases } from '@portal/platform/testing/databases';
import { projections } from '../src/projections/index.ts';
import { prepareReadModels } from '../src/read-models.ts';

/**
 * The read models' identifiers and codes compare byte by byte (`COLLATE "C"`, read-models'
 * `identifier`), every one of them: an id declared as plain text would still join with the others
 * (PostgreSQL combines the database's own collation with "C" into "C"), but its index would then
 * serve no such join or lookup, which would be a slow plan nothing else notices. On PGlite, whose
 * database is "C" itself, the declarations are the same.
 */
describe.each(testDatabases())('read-model identifiers on $name', (database) => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openEventStore(database));
    await prepareReadModels(db, 'rm', projections);
  });
  afterAll(() => drop());

  it('declares every text column of every projection table "C", but for the text people read', async () => {
    const columns = await db.query<{ column: string; collation: string | null }>(
      `SELECT c.table_name || '.' || c.column_name AS column, c.collation_name AS collation
         FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE c.table_schema = 'rm' AND t.table_type = 'BASE TABLE' AND c.data_type = 'text'
          AND c.table_name NOT IN ('checkpoints', 'partition_progress', 'projection_faults', 'projection_missed',
                                   'projection_versions')
        ORDER BY 1`,
    );
    expect(columns.filter(({ column }) => /\.(id|\w+_id)$/.test(column)).length).toBeGreaterThan(30);
    // Topics, descriptions and reasons as people wrote them, sorted and searched in the database's
    // collation. A new text column is either an identifier or added here, knowingly.
    expect(columns.filter(({ collation }) => collation !== 'C').map(({ column }) => column)).toEqual([
      'certificates.course_topic',
      'certificates.revoked_reason',
      'courses.description',
      'courses.image_url',
      'courses.search_text',
      'courses.topic',
      'emails_sealed.failure',
      'notifications.course_topic',
      'notifications.detail',
      'notify_courses.topic',
      'scan_attempts.reason',
    ]);
  });

  it('uses an identifier index to look up by a parameter and to join with plain text', async () => {
    await db.query(`INSERT INTO rm.rounds (id, course_id, starts_at, ends_at)
                    SELECT 'r' || i, 'c' || (i % 50), now(), now() FROM generate_series(1, 2000) i`);
    await db.query(`ANALYZE rm.rounds`);
    const plan = async (text: string, params: unknown[]) =>
      (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params)).map((row) => row['QUERY PLAN']).join('\n');
    expect(await plan(`SELECT course_id FROM rm.rounds WHERE id = $1`, ['r7'])).toMatch(/Index.*rounds_pkey/);
    expect(
      await plan(`SELECT r.course_id FROM (VALUES ($1::text)) AS asked (id) JOIN rm.rounds r ON r.id = asked.id`, [
        'r7',
      ]),
    ).toMatch(/Index.*rounds_pkey/);
    const [row] = await db.query<{ course_id: string }>(
      `SELECT r.course_id FROM (VALUES ($1::text)) AS asked (id) JOIN rm.rounds r ON r.id = asked.id`,
      ['r7'],
    );
    expect(row?.course_id).toBe('c7');
  });
});
