import type { StoredEvent } from '@portal/contracts/envelope';
import { readCheckpoint, writeCheckpoint } from '@portal/platform/read-models/checkpoint';
import { readAllAfter } from '@portal/platform/store/event-store';
import { type LogSpan, readLogSpan } from '@portal/platform/store/log-span';
import { type Share, readLogRange } from './log-range.ts';
import { projectionsAside } from '@portal/platform/read-models/projection-faults';
import { type Checkpoint, type EventStore, START, checkpointOf, isAtOrBefore } from '@portal/platform/store/port';
import { type SqlDatabase, sqlState } from '@portal/platform/store/sql';
import { allSettledOrFirstFailure } from '@portal/platform/async/settled';
import { analyzeTables, buildQueryIndexes, setQueryIndexesAside } from '@portal/platform/read-models/query-indexes';
import type { Projection } from './projection.ts';
import { applyBatchIn, applyEvents, courseOf } from './apply.ts';
import { prepareReadModels, recordVersion } from './read-models.ts';

const BATCH = 5000;
/**
 * How many batches' worth of events a span of the log holds at most when some types are written
 * in the database (Projection.rebuildInDatabase); the lanes are still given at most a batch of it.
 */
const SPAN_OF_BATCHES = 8;
/** How many batches the fastest projection may be ahead of the slowest in a rebuild. */
const AHEAD = 4;
/** The lanes a projection keyed by course is filled in on PostgreSQL (Projection.byCourse). */
const COURSE_LANES = 2;

export interface RebuildOptions {
  /** The log; it must live in the same database as the read models (true of every setup here). */
  store: EventStore;
  db: SqlDatabase;
  projections: readonly Projection[];
  schema?: string;
  onProgress?: (done: number, total: number) => void;
  /**
   * Told when the whole log is applied: what a projection counts in another's tables, the indexes
   * that serve queries only and the statistics are being made.
   */
  onIndexing?: () => void;
  /** Events read and applied at a time (tests use small batches to make many of them). */
  batch?: number;
}

/** Fresh read models of `projections` in `next`, filled from the whole log, with progress. */
async function fillFromLog(options: RebuildOptions, next: string, projections: readonly Projection[]) {
  const { db, store } = options;
  // One rebuilt without the one it is rebuilt with would fail on every event and be set aside.
  const names = new Set(projections.map((projection) => projection.name));
  for (const projection of projections) {
    const missing = projection.rebuiltWith?.filter((name) => !names.has(name)) ?? [];
    if (missing.length > 0)
      throw new Error(`${projection.name} is rebuilt with ${missing.join(', ')}: rebuild them together`);
  }
  await db.query(`DROP SCHEMA IF EXISTS ${next} CASCADE`);
  await prepareReadModels(db, next, projections);
  // The fresh tables are filled without the indexes only queries read; those are built after.
  const aside = await setQueryIndexesAside(db, next);
  let total = (await store.lagBehind(START)).events;
  let done = 0;
  options.onProgress?.(done, total);
  const reached = await followInLanes(options, next, projections, (events) => {
    done += events;
    total = Math.max(total, done);
    options.onProgress?.(done, total);
  });
  options.onIndexing?.();
  // What a projection writes to another's tables, now that both hold the whole log, in one
  // transaction, while the indexes only queries read are built beside it: two at a time on
  // PostgreSQL (its connections are processes, and the transaction is one process's work for a
  // second or more); PGlite has one connection and takes them in turn. If the transaction fails,
  // no more index is started. Then the statistics, of the tables as they are now.
  const lanes = db.kind === 'postgres' ? 2 : 1;
  const counting = new AbortController();
  await allSettledOrFirstFailure([
    db
      .transaction(async (tx) => {
        for (const projection of projections) await projection.afterRebuild?.(tx, next);
        await writeCheckpoint(tx, next, reached);
      })
      .catch((error: unknown) => {
        counting.abort();
        throw error;
      }),
    buildQueryIndexes(db, next, aside, lanes, counting.signal),
  ]);
  await analyzeTables(db, next, lanes);
  return { done, total };
}

/**
 * Applies the log from `next`'s checkpoint to its end through each projection on its own
 * connection, so one's rows are built in the portal's thread while another's statements run in
 * the database; a projection keyed by course, in COURSE_LANES lanes on PostgreSQL; and what a
 * projection writes in the database itself (Projection.rebuildInDatabase), in a lane of its own
 * that gives each span of the log to its statement. They share the spans read (the next read
 * while this one is applied: the events no lane is given only counted), none runs more than
 * AHEAD spans before the slowest, and `onApplied` is told of each span all have applied. Answers
 * where the log ended (the caller writes the checkpoint).
 */
async function followInLanes(
  options: RebuildOptions,
  next: string,
  projections: readonly Projection[],
  onApplied: (events: number) => void,
): Promise<Checkpoint> {
  const { db, batch: size = BATCH } = options;
  const courseLanes = db.kind === 'postgres' ? COURSE_LANES : 1;
  // What projections write in the database (Projection.rebuildInDatabase): on PostgreSQL only,
  // whose own processes do it beside the portal's thread; PGlite's one thread, already the
  // rebuild's slowest part, took longer to do it than to be given the rows (docs/performance.md,
  // machine W).
  const writesInDatabase = (projection: Projection) =>
    db.kind === 'postgres' ? projection.rebuildInDatabase?.types : undefined;
  // Each projection's lanes: one (share null), or COURSE_LANES with a share of the courses each;
  // each given the types its projection reads but those it writes in the database.
  const lanes = projections.flatMap((projection): Lane[] => {
    const inDatabase = writesInDatabase(projection);
    const reads =
      projection.reads && inDatabase
        ? new Set([...projection.reads].filter((type) => !inDatabase.has(type)))
        : projection.reads;
    return projection.byCourse && courseLanes > 1
      ? Array.from({ length: courseLanes }, (_, share) => ({ projection, reads, share }))
      : [{ projection, reads, share: null }];
  });
  // Their lanes for that, by course as their others.
  const inDatabase = projections
    .filter((projection) => writesInDatabase(projection))
    .flatMap((projection) => {
      const of = projection.byCourse ? courseLanes : 1;
      return Array.from({ length: of }, (_, index) => ({ projection, share: { of, index } }));
    });
  const skipping = skippedTypes(
    lanes,
    inDatabase.map(({ projection }) => projection),
  );
  const shareOut = laneSharer(lanes, courseLanes);
  let work = lanes.map(() => Promise.resolve());
  let filling = inDatabase.map(() => Promise.resolve());
  const applying: Promise<void>[] = [];
  let reached = await readCheckpoint(db, next);
  const read = async (after: Checkpoint): Promise<LogSpan> => {
    if (skipping.length > 0) return readLogSpan(db, after, { span: SPAN_OF_BATCHES * size, most: size, skipping });
    const events = await readAllAfter(db, after, size);
    return { events, spanned: events.length, end: events.length > 0 ? checkpointOf(events.at(-1)!) : null };
  };
  try {
    let span = await read(reached);
    while (span.end) {
      const following = read(span.end);
      following.catch(() => {}); // awaited below; a failed apply must not leave it unhandled
      const { events, spanned } = span;
      const [after, upTo] = [reached, span.end];
      const shares = shareOut(events);
      work = work.map((lane, i) => lane.then(() => fillBatch(db, next, lanes[i]!.projection, shares[i]!)));
      filling = filling.map((lane, i) =>
        lane.then(() =>
          fillInDatabase(db, next, inDatabase[i]!.projection, { after, upTo, share: inDatabase[i]!.share }),
        ),
      );
      const applied = Promise.all([...work, ...filling]).then(() => onApplied(spanned));
      applied.catch(() => {}); // awaited below, in order
      applying.push(applied);
      if (applying.length > AHEAD) await applying.shift();
      reached = upTo;
      span = await following;
    }
    await Promise.all(applying);
    return reached;
  } catch (error) {
    // No lane goes on writing once the rebuild has failed (it may be started again at once).
    await Promise.allSettled([...work, ...filling]);
    throw error;
  }
}

/**
 * The types no lane is given, which some projection writes in the database: a span's events of
 * them are counted, not read. None when a lane takes every type.
 */
function skippedTypes(lanes: readonly Lane[], inDatabase: readonly Projection[]): string[] {
  if (lanes.some((lane) => !lane.reads)) return [];
  const read = new Set(lanes.flatMap((lane) => [...lane.reads!]));
  const written = inDatabase.flatMap((projection) => [...projection.rebuildInDatabase!.types]);
  return [...new Set(written)].filter((type) => !read.has(type));
}

/**
 * A span of the log written by a projection's own statement (Projection.rebuildInDatabase), in a
 * transaction of its own; a span it is not sure of, or a projection set aside, is given to
 * `apply` as a lane would give it (fillBatch: set aside, it notes the events as missed).
 */
async function fillInDatabase(
  db: SqlDatabase,
  schema: string,
  projection: Projection,
  span: { after: Checkpoint; upTo: Checkpoint; share: Share },
) {
  const { types, fill } = projection.rebuildInDatabase!;
  const filled = await db
    .transaction(async (tx) => {
      await tx.query(`SET LOCAL synchronous_commit = off`);
      // A span's events are held at once (the statement reads each several times).
      await tx.query(`SET LOCAL work_mem = '64MB'`);
      if ((await projectionsAside(tx, schema)).has(projection.name)) return false;
      return fill(tx, schema, span);
    })
    // An error of the data (class 22: a date that is none, which the checks let by and the cast
    // refuses): `apply` decides, as it would have. Any other is the statement's own (a table it
    // names gone, a mistake in its text) or the database's, and fails the rebuild: given to
    // `apply`, every span would have been written the slow way with nobody told.
    .catch((error: unknown) => {
      if (sqlState(error)?.startsWith('22')) return false;
      throw error;
    });
  if (!filled) await fillBatch(db, schema, projection, await readLogRange(db, span, [...types]));
}

interface Lane {
  projection: Projection;
  /** The types it is given (unset: every one). */
  reads: ReadonlySet<string> | undefined;
  /** Which of a projection's lanes by course this is (`count` of them, one after another), or null: its only lane. */
  share: number | null;
}

/**
 * Shares a batch among the lanes in one pass: each lane gets the events of the types its
 * projection reads (every event, if it names none), a lane by course only its share of the
 * courses' (an event about no course goes to the first). Before, each of the ten lanes went
 * through the whole batch to pass by what its projection does not read (and applyEvents gathered
 * the courses of every event): a second and a half of the portal's thread a million events
 * (docs/performance.md, machine Q).
 */
function laneSharer(lanes: readonly Lane[], count: number) {
  /** For each event type: the lanes that take it whole, and the first lanes of those that take it by course. */
  const byType = new Map<string, { whole: number[]; byCourse: number[] }>();
  const targetsOf = (type: string) => {
    const targets = { whole: [] as number[], byCourse: [] as number[] };
    lanes.forEach(({ reads, share }, i) => {
      if (reads && !reads.has(type)) return;
      if (share === null) targets.whole.push(i);
      else if (share === 0) targets.byCourse.push(i);
    });
    byType.set(type, targets);
    return targets;
  };
  return (events: readonly StoredEvent[]) => {
    const shares = lanes.map((): StoredEvent[] => []);
    for (const event of events) {
      const { whole, byCourse } = byType.get(event.type) ?? targetsOf(event.type);
      for (const i of whole) shares[i]!.push(event);
      if (byCourse.length === 0) continue;
      const course = courseOf(event);
      const share = course === null ? 0 : laneOfCourse(course, count);
      for (const first of byCourse) shares[first + share]!.push(event);
    }
    return shares;
  };
}

/** A course's lane: FNV-1a of its id, so one course's events always go to the same lane. */
function laneOfCourse(course: string, count: number) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < course.length; i++) hash = Math.imul(hash ^ course.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % count;
}

/**
 * Applies a batch of the log through one projection filling a fresh schema. The checkpoint is
 * written once the whole log is in; nothing waits for this commit to reach the disk, since a
 * rebuild cut short starts again from nothing (the swap that moves it in is durable).
 */
async function fillBatch(db: SqlDatabase, schema: string, projection: Projection, events: readonly StoredEvent[]) {
  if (events.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.query(`SET LOCAL synchronous_commit = off`);
    await applyEvents(tx, schema, [projection], events, { rebuilding: true });
  });
}

/** What the read-model schema holds besides the projections' own tables. */
const INFRASTRUCTURE = [
  'checkpoints',
  'partition_progress',
  'projection_faults',
  'projection_missed',
  'projection_versions',
];

/**
 * Rebuilds every read model from the log into fresh tables beside the live ones, then swaps them
 * in: the live read models keep answering until the new ones have caught up. The swap locks the
 * live checkpoint, so a running projector waits, then carries on from the rebuilt checkpoint.
 */
export async function rebuildReadModels(options: RebuildOptions): Promise<{ events: number }> {
  const live = options.schema ?? 'rm';
  const next = `${live}_next`;
  const { db, projections } = options;
  const filled = await fillFromLog(options, next, projections);
  const { total } = filled;
  let { done } = filled;

  await prepareReadModels(db, live, []);
  await db.transaction(async (tx) => {
    await tx.query(`LOCK TABLE ${live}.checkpoints IN ACCESS EXCLUSIVE MODE`);
    for (;;) {
      const batch = await readAllAfter(tx, await readCheckpoint(tx, next), BATCH);
      if (batch.length === 0) break;
      await applyBatchIn(tx, next, projections, batch);
      done += batch.length;
    }
    await tx.query(`DROP SCHEMA ${live} CASCADE`);
    await tx.query(`ALTER SCHEMA ${next} RENAME TO ${live}`);
  });
  options.onProgress?.(done, Math.max(total, done));
  return { events: done };
}

/**
 * Rebuilds the read models of `rebuilt` only (a projection whose version changed, with those
 * rebuilt together with it); the others are left as they are, answering meanwhile. The rebuilt
 * tables are filled from the log in a fresh schema beside the live one, brought to exactly the
 * live checkpoint with it locked (a projector following the log waits), then moved in place of
 * the old ones.
 */
export async function rebuildProjections(
  options: RebuildOptions & { rebuilt: readonly Projection[] },
): Promise<{ events: number }> {
  const live = options.schema ?? 'rm';
  const next = `${live}_next`;
  const { db, rebuilt } = options;
  const filled = await fillFromLog(options, next, rebuilt);
  const { total } = filled;
  let { done } = filled;

  await db.transaction(async (tx) => {
    await tx.query(`LOCK TABLE ${live}.checkpoints IN ACCESS EXCLUSIVE MODE`);
    const target = await readCheckpoint(tx, live);
    // Up to the live checkpoint exactly: the other read models are there, and carry on from it.
    for (;;) {
      const batch = (await readAllAfter(tx, await readCheckpoint(tx, next), BATCH)).filter((event) =>
        isAtOrBefore(checkpointOf(event), target),
      );
      if (batch.length === 0) break;
      await applyBatchIn(tx, next, rebuilt, batch);
      done += batch.length;
    }
    const relations = await tx.query<{ name: string; kind: string }>(
      `SELECT c.relname AS name, c.relkind::text AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'v') AND NOT (c.relname = ANY($2::text[]))`,
      [next, INFRASTRUCTURE],
    );
    // Whatever the live schema holds under those names goes, table or view (an older layout).
    const liveKinds = new Map(
      (
        await tx.query<{ name: string; kind: string }>(
          `SELECT c.relname AS name, c.relkind::text AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind IN ('r', 'v')`,
          [live],
        )
      ).map((row) => [row.name, row.kind]),
    );
    for (const { name } of relations) {
      const kind = liveKinds.get(name);
      if (kind) await tx.query(`DROP ${kind === 'v' ? 'VIEW' : 'TABLE'} IF EXISTS ${live}.${name} CASCADE`);
    }
    for (const { name } of relations.filter((relation) => relation.kind === 'r')) {
      await tx.query(`ALTER TABLE ${next}.${name} SET SCHEMA ${live}`);
    }
    const names = rebuilt.map((projection) => projection.name);
    for (const projection of rebuilt) {
      // The views over sealed tables, and anything else a projection declares, made again in place.
      await projection.createTables(tx, live);
      await recordVersion(tx, live, projection);
    }
    await tx.query(`DELETE FROM ${live}.projection_missed WHERE name = ANY($1::text[])`, [names]);
    await tx.query(`DELETE FROM ${live}.projection_faults WHERE name = ANY($1::text[])`, [names]);
    await tx.query(`DROP SCHEMA ${next} CASCADE`);
  });
  options.onProgress?.(done, Math.max(total, done));
  return { events: done };
}
