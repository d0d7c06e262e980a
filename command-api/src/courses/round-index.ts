import type { Sql } from '@portal/platform/store/sql';

/**
 * Which course a round belongs to: the scan call names only the round (spec 001 section 7). The
 * command side keeps this small lookup itself, written in the transaction that schedules the
 * round, and fills it from the log once for rounds scheduled before it existed.
 */
export async function createRoundIndex(sql: Sql): Promise<void> {
  const [table] = await sql.query<{ missing: boolean }>(`SELECT to_regclass('cmd.round_courses') IS NULL AS missing`);
  await sql.query(`CREATE TABLE IF NOT EXISTS cmd.round_courses (round_id text PRIMARY KEY, course_id text NOT NULL)`);
  // Filled from the log when it is made (not at every start: it read every event of the log by
  // its type); from then on each round's own transaction writes its row (indexRound).
  if (!table!.missing) return;
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

/**
 * A round's course never changes (the index only ever inserts), so each process remembers what it
 * found, per database: a scan then skips this lookup. Bounded: forgotten all at once when full.
 */
const known = new WeakMap<Sql, Map<string, string>>();
const KNOWN_AT_MOST = 10_000;

export async function courseOfRound(sql: Sql, roundId: string): Promise<string | null> {
  let courses = known.get(sql);
  const remembered = courses?.get(roundId);
  if (remembered) return remembered;
  const [row] = await sql.query<{ course_id: string }>(`SELECT course_id FROM cmd.round_courses WHERE round_id = $1`, [
    roundId,
  ]);
  if (!row) return null;
  if (!courses) known.set(sql, (courses = new Map()));
  if (courses.size >= KNOWN_AT_MOST) courses.clear();
  courses.set(roundId, row.course_id);
  return row.course_id;
}
