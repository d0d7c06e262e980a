import type { StoredEvent } from '@portal/contracts/envelope';
import { courseIdOf } from '@portal/contracts/courses/course.events';
import {
  CHANGES_CHANNEL,
  PROGRESS_CHANNEL,
  lockCheckpointForBatch,
  writeCheckpoint,
} from '@portal/platform/read-models/checkpoint';
import {
  clearMissed,
  firstMissed,
  noteMissed,
  projectionsAside,
  readFaults,
  recordFault,
} from '@portal/platform/read-models/projection-faults';
import { batchPersonalDataReader } from '@portal/platform/privacy/personal-data';
import { openText, readModelKey, sealText, sealTexts, searchGrams } from '@portal/platform/read-models/sealed-columns';
import { readEventsAt } from '@portal/platform/store/event-store';
import { type Checkpoint, checkpointOf, isAtOrBefore } from '@portal/platform/store/port';
import { type Sql, type SqlDatabase, notifyAll } from '@portal/platform/store/sql';
import { type Table, insertRow, insertRows } from '@portal/platform/read-models/table';
import type { Batch, PersonalAccess, Projection } from './projection.ts';

/** The course an event is about: its stream's, or the one its data names (attendance). */
export function courseOf(event: StoredEvent): string | null {
  if (event.streamId.startsWith('course-')) return courseIdOf(event.streamId);
  const courseId = (event.data as { courseId?: unknown } | null)?.courseId;
  return typeof courseId === 'string' ? courseId : null;
}

/** How soon a projection set aside is tried again: doubling from `first` up to `max` (ms). */
export interface RetryPolicy {
  first: number;
  max: number;
}
export const DEFAULT_RETRY: RetryPolicy = { first: 1000, max: 60_000 };
export const retryDelay = (policy: RetryPolicy, attempts: number) =>
  Math.min(policy.max, policy.first * 2 ** Math.min(30, Math.max(0, attempts - 1)));

/**
 * Applies a batch in one transaction with the checkpoint. Events at or before the stored
 * checkpoint are skipped, so a batch delivered twice, or by two projectors at once, counts once.
 */
export async function applyBatch(
  db: SqlDatabase,
  schema: string,
  projections: readonly Projection[],
  batch: readonly StoredEvent[],
  retry: RetryPolicy = DEFAULT_RETRY,
): Promise<Checkpoint> {
  // Every projection without a savepoint of its own first (two statements fewer each, on every
  // batch); should one throw, the whole batch again, each projection alone in its savepoint.
  try {
    return await db.transaction((tx) => applyBatchIn(tx, schema, projections, batch, retry, true));
  } catch (error) {
    if (!(error instanceof NeedsSavepoints)) throw error;
    return db.transaction((tx) => applyBatchIn(tx, schema, projections, batch, retry));
  }
}

/** A projection threw in a transaction without savepoints: it must be applied again with them. */
class NeedsSavepoints extends Error {
  constructor(readonly projection: string) {
    super(`${projection} failed in a batch without savepoints: applied again with them`);
  }
}

/**
 * Batches of at most this many events run on generic plans (lockCheckpointForBatch): a live
 * batch is a few events, and its statements over lists of them (the attendance's recount of more
 * than four rounds) were planned anew on every call. A projector catching up reads hundreds of
 * events a batch, where plans made for the lists' real sizes are faster (docs/performance.md).
 */
export const GENERIC_PLANS_UP_TO = 64;

/** The same, inside a transaction the caller holds. */
export async function applyBatchIn(
  tx: Sql,
  schema: string,
  projections: readonly Projection[],
  batch: readonly StoredEvent[],
  retry: RetryPolicy = DEFAULT_RETRY,
  /** No savepoint per projection: a projection that throws throws NeedsSavepoints (applyBatch). */
  optimistic = false,
): Promise<Checkpoint> {
  const small = batch.length <= GENERIC_PLANS_UP_TO;
  const { checkpoint: start, aside } = await lockCheckpointForBatch(tx, schema, small);
  let checkpoint = start;
  const fresh: StoredEvent[] = [];
  for (const event of batch) {
    if (isAtOrBefore(checkpointOf(event), checkpoint)) continue;
    fresh.push(event);
    checkpoint = checkpointOf(event);
  }
  if (checkpoint === start) return checkpoint;
  await applyEvents(tx, schema, projections, fresh, { retry, optimistic, aside });
  await writeCheckpoint(tx, schema, checkpoint, announcements(checkpoint, coursesOf(fresh)));
  return checkpoint;
}

/**
 * Applies events through every projection, each on its own (a savepoint, with the work it
 * defers to the batch's end). A projection that throws is rolled back alone and set aside
 * (rm.projection_faults) while the others go on; a projection set aside only notes the events it
 * passes by (rm.projection_missed), to apply them when retried (retryFault). The caller decides
 * which events are new and records how far it got, in the same transaction (and announces the
 * courses they were about: coursesOf).
 */
export async function applyEvents(
  tx: Sql,
  schema: string,
  projections: readonly Projection[],
  events: readonly StoredEvent[],
  options: {
    retry?: RetryPolicy;
    /** Runs before deferred work (a projector sharing the log takes its course locks here). */
    beforeDeferred?: () => Promise<void>;
    /** Filling fresh read models in a rebuild (Batch.rebuilding). */
    rebuilding?: boolean;
    /** No savepoints: a projection that throws throws NeedsSavepoints, for the whole batch to be applied again. */
    optimistic?: boolean;
    /** The projections set aside, when the caller has read them (lockCheckpointForBatch). */
    aside?: Set<string>;
  } = {},
): Promise<void> {
  // Shared locks on the faults first: a retry ending one waits for this batch to note what it missed.
  const aside = options.aside ?? (await projectionsAside(tx, schema));
  // The keys live beside the log, in the same database as the read models (as rebuilds assume).
  const personal = personalAccess(tx, events);
  for (const projection of projections) {
    if (aside.has(projection.name)) continue;
    // Nothing here for it: no savepoint, no statement (a batch of scans touches attendance alone).
    if (projection.reads && !events.some((event) => projection.reads!.has(event.type))) continue;
    const failure = await applyAlone(tx, schema, projection, events, personal, options);
    if (!failure) continue;
    const retryInMs = (options.retry ?? DEFAULT_RETRY).first;
    await recordFault(tx, schema, { projection: projection.name, ...failure, retryInMs });
    aside.add(projection.name);
  }
  const known = projections.map((projection) => projection.name).filter((name) => aside.has(name));
  await noteMissed(tx, schema, known, events);
}

/**
 * Personal data for the projections of one batch: the read models' key is read once, when first
 * needed, and the keys of the people the batch's events sealed data for in one query.
 */
function personalAccess(tx: Sql, events: readonly StoredEvent[]): PersonalAccess {
  let key: Promise<Buffer> | undefined;
  const readKey = () => (key ??= readModelKey(tx));
  return Object.assign(batchPersonalDataReader(tx, events), {
    seal: async (text: string | null) => sealText(await readKey(), text),
    sealAll: async (texts: readonly (string | null)[]) => sealTexts(await readKey(), texts),
    unseal: async (sealed: Uint8Array | null) => openText(await readKey(), sealed),
    searchGrams: async (text: string) => searchGrams(await readKey(), text),
  });
}

/**
 * Applies events through one projection, with the work it defers, inside a savepoint: when it
 * throws, its effects are rolled back and the event it failed on is answered (null: all applied).
 * A failure to roll back (the database itself gone) is thrown: the whole batch is retried.
 * Optimistic, without the savepoint: any failure throws NeedsSavepoints.
 */
async function applyAlone(
  tx: Sql,
  schema: string,
  projection: Projection,
  events: readonly StoredEvent[],
  personal: PersonalAccess,
  options: { beforeDeferred?: () => Promise<void>; rebuilding?: boolean; optimistic?: boolean } = {},
  gathered = true,
): Promise<{ position: number; error: string } | null> {
  const savepoint = !options.optimistic;
  if (savepoint) await tx.query('SAVEPOINT projection');
  let current = events[0];
  try {
    const deferred = new Map<string, () => Promise<void>>();
    const writes = gatheredInserts(tx, gathered);
    const context: Batch = {
      after: (key, work) => void deferred.set(key, work),
      insert: writes.insert,
      rebuilding: options.rebuilding ?? false,
    };
    const { reads } = projection;
    for (const event of events) {
      // Not one it acts on: no call (a rebuild's batch of 5,000 holds a few of most projections').
      if (reads && !reads.has(event.type)) continue;
      current = event;
      await projection.apply(writes.sql, schema, event, personal, context);
    }
    await writes.flush();
    if (deferred.size > 0) await options.beforeDeferred?.();
    for (const work of deferred.values()) await work();
    await writes.flush();
    if (savepoint) await tx.query('RELEASE SAVEPOINT projection');
    return null;
  } catch (error) {
    if (!savepoint) throw new NeedsSavepoints(projection.name);
    await tx.query('ROLLBACK TO SAVEPOINT projection');
    await tx.query('RELEASE SAVEPOINT projection');
    // A gathered insert fails when it is written, after the event that queued it: apply the batch
    // again one statement at a time, so the fault names the event that failed.
    if (gathered) return applyAlone(tx, schema, projection, events, personal, options, false);
    return { position: current?.position ?? 0, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The inserts a projection queues with `batch.insert`, written as one statement per table and
 * columns (insertRows) just before the projection's next statement of any other kind and at the
 * batch's end: the database ends with the same rows, in far fewer round trips.
 * Queued rows of one table with other columns or another conflict clause are written first.
 * Not gathered: each insert is written at once (used to find which event failed).
 */
function gatheredInserts(tx: Sql, gathered: boolean) {
  const queued = new Map<
    string,
    { table: Table; schema: string; then: string; rows: Map<string, Record<string, unknown>> }
  >();
  let rowNumber = 0;
  const flush = async () => {
    for (const { schema, table, then, rows } of queued.values()) {
      await tx.query(...insertRows(schema, table, [...rows.values()], then));
    }
    queued.clear();
  };
  return {
    flush,
    sql: {
      async query(text, params) {
        if (queued.size > 0) await flush();
        return tx.query(text, params);
      },
      ...(tx.copyIn && {
        async copyIn(table: string, columns: readonly string[], text: string) {
          if (queued.size > 0) await flush();
          return tx.copyIn!(table, columns, text);
        },
      }),
    } as Sql,
    async insert(schema, table, row, then = '') {
      const conflict = gatherable(then);
      if (!gathered) return void (await tx.query(...insertRow(schema, table, row, then)));
      const key = `${schema}.${table.storedAs} (${Object.keys(row).join(',')}) ${then}`;
      let group = queued.get(key);
      if (!group) {
        // One group per table at a time: a group of its rows with other columns or another
        // conflict clause is written first (so, when this one is queued, there is none).
        const prefix = `${schema}.${table.storedAs} (`;
        for (const other of queued.keys()) {
          if (other.startsWith(prefix)) {
            await flush();
            break;
          }
        }
        group = { table, schema, then, rows: new Map() };
      }
      let values = row as Record<string, unknown>;
      // An upsert of a row queued before is folded into it (one statement may not change a row
      // twice): its set columns take the later values, the others keep what the first would have inserted.
      const identity = conflict.columns
        ? JSON.stringify(conflict.columns.map((column) => values[column]))
        : String(rowNumber++);
      const earlier = group.rows.get(identity);
      if (earlier) {
        const later = values;
        values = { ...earlier };
        for (const column of conflict.sets) if (column in later) values[column] = later[column];
        group.rows.delete(identity);
      }
      group.rows.set(identity, values);
      queued.set(key, group);
    },
  } satisfies { flush(): Promise<void>; sql: Sql; insert: Batch['insert'] };
}

/** How a queued row meets one queued before it with the same key (gatherable). */
interface Gathering {
  /** An upsert's key columns (DO UPDATE): a row with the same key as one queued before is folded into it. Null for the rest. */
  columns: string[] | null;
  /** The columns an upsert sets (to the new row's values). */
  sets: string[];
}

/**
 * What may be gathered: plain inserts, ON CONFLICT ... DO NOTHING, and upserts that set columns
 * only to the new row's values (ON CONFLICT (key) DO UPDATE SET a = EXCLUDED.a, ...). Of two rows
 * with one key, the later's set columns win and the others keep the earlier's values: as the
 * second upsert would have left the row the first inserted (or updated).
 */
function gatherable(then: string): Gathering {
  let known = gatherables.get(then);
  if (!known) gatherables.set(then, (known = gatherableNow(then)));
  return known;
}

/** gatherable's answers, by clause: every insert a projection queues asks (a few clauses in all). */
const gatherables = new Map<string, Gathering>();

function gatherableNow(then: string): Gathering {
  const nothing = /^(ON CONFLICT( \([\w, ]+\))? DO NOTHING)?$/.exec(then);
  if (nothing) return { columns: null, sets: [] };
  const update = /^ON CONFLICT \((?<columns>[\w, ]+)\) DO UPDATE SET (?<sets>.+)$/.exec(then);
  const sets = update?.groups!.sets!.split(/,\s*/) ?? [];
  if (update && sets.every((set) => /^(\w+) = EXCLUDED\.\1$/.test(set))) {
    return {
      columns: update.groups!.columns!.split(/,\s*/),
      sets: sets.map((set) => set.split(' ')[0]!),
    };
  }
  throw new Error(`batch.insert gathers plain inserts, DO NOTHING and upserts to EXCLUDED values, not '${then}'`);
}

const RETRY_CHUNK = 500;

/**
 * Tries a projection set aside again: applies the events it missed, oldest first, up to
 * RETRY_CHUNK in one transaction (which holds its fault, so no batch notes more meanwhile).
 * Answers `rejoined` when nothing is left (from now on it applies batches with the others),
 * `progress` when more is left, `failed` when it failed again (tried later, each time later up
 * to `retry.max`), `gone` when it is not set aside. A projection no longer in the code is dropped.
 */
export async function retryFault(
  db: SqlDatabase,
  schema: string,
  projections: readonly Projection[],
  name: string,
  retry: RetryPolicy = DEFAULT_RETRY,
): Promise<'rejoined' | 'progress' | 'failed' | 'gone'> {
  return db.transaction(async (tx) => {
    const fault = (await readFaults(tx, schema, name))[0];
    if (!fault) return 'gone';
    const projection = projections.find((candidate) => candidate.name === name);
    if (!projection) {
      await tx.query(`DELETE FROM ${schema}.projection_missed WHERE name = $1`, [name]);
      await tx.query(`DELETE FROM ${schema}.projection_faults WHERE name = $1`, [name]);
      return 'rejoined';
    }
    const positions = await firstMissed(tx, schema, name, RETRY_CHUNK);
    const events = await readEventsAt(tx, positions);
    if (events.length > 0) {
      const failure = await applyAlone(tx, schema, projection, events, personalAccess(tx, events), {
        beforeDeferred: () => lockCourses(tx, events),
      });
      if (failure) {
        const retryInMs = retryDelay(retry, fault.attempts + 1);
        await recordFault(tx, schema, { projection: name, ...failure, retryInMs });
        return 'failed';
      }
      await announce(tx, null, coursesOf(events));
    }
    return (await clearMissed(tx, schema, name, positions)) ? 'rejoined' : 'progress';
  });
}

/** The courses events are about (courseOf): what announce tells live pages. */
export const coursesOf = (events: readonly StoredEvent[]) =>
  new Set(events.map(courseOf).filter((course): course is string => course !== null));

/**
 * One transaction-scoped lock per course the events are about, in one global order: what
 * projectors sharing the log do to one course's rows is serialised (see kafka/apply-partition.ts).
 */
export async function lockCourses(tx: Sql, events: readonly StoredEvent[]): Promise<void> {
  const courses = [...coursesOf(events)];
  if (courses.length === 0) return;
  await tx.query(
    `SELECT count(pg_advisory_xact_lock(key)) FROM (
       SELECT DISTINCT hashtextextended('rm-course:' || id, 0) AS key FROM unnest($1::text[]) AS id ORDER BY key
     ) keys`,
    [courses],
  );
}

/**
 * Tells the query API, at commit, that the read models reached `checkpoint` (read-your-writes
 * waiters; null: it did not move) and that events were applied, with the courses they were about
 * (live pages; null: no events were applied).
 */
export async function announce(tx: Sql, checkpoint: Checkpoint | null, courses: Set<string> | null) {
  await notifyAll(tx, announcements(checkpoint, courses));
}

/** What announce sends. */
function announcements(checkpoint: Checkpoint | null, courses: Set<string> | null) {
  const notifications: [string, string][] = [];
  if (checkpoint) notifications.push([PROGRESS_CHANNEL, String(checkpoint.position)]);
  if (courses) {
    // NOTIFY payloads stay under 8000 bytes: a batch touching many courses says "all".
    const changed = courses.size <= 100 ? [...courses] : '*';
    notifications.push([CHANGES_CHANNEL, JSON.stringify({ position: checkpoint?.position ?? 0, courses: changed })]);
  }
  return notifications;
}
