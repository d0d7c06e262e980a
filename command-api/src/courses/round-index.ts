import type { Sql } from '@portal/platform/store/sql';

/**
 * Which course a round belongs to: the scan call names only the round (spec 001 section 7). The
 * command side keeps this small lookup itself, written in the transaction that schedules the
 * round, and fills it from the log once for rounds scheduled before it existed.
 */
export async function createRoundIndex(sql: Sql): Promise<void> {
  await sql.query(`CREATE TABLE IF NOT EXISTS cmd.round_courses (round_id text PRIMARY KEY, course_id text NOT NULL)`);
  await sql.query(
    `INSERT INTO cmd.round_courses (round_id, course_id)
     SELECT data->>'roundId', substr(stream_id, length('course-') + 1) FROM es.events WHERE type = 'RoundScheduled'
     ON CONFLICT DO NOTHING`,
  );
}

export async function indexRound(sql: Sql, roundId: string, courseId: string): Promise<void> {
  await sql.query(`INSERT INTO cmd.round_courses (round_id, course_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
    roundId,
    courseId,
  ]);
}

export async function courseOfRound(sql: Sql, roundId: string): Promise<string | null> {
  const [row] = await sql.query<{ course_id: string }>(`SELECT course_id FROM cmd.round_courses WHERE round_id = $1`, [
    roundId,
  ]);
  return row?.course_id ?? null;
}
