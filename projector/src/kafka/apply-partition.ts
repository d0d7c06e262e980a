import type { TopicMessage } from '@portal/platform/distribution/messages';
import type { StoredEvent } from '@portal/contracts/envelope';
import { readCheckpoint, writeCheckpoint } from '@portal/platform/read-models/checkpoint';
import { type Checkpoint, checkpointOf, isAtOrBefore } from '@portal/platform/store/port';
import type { Sql, SqlDatabase } from '@portal/platform/store/sql';
import { type RetryPolicy, announce, applyEvents, coursesOf, lockCourses } from '../apply.ts';
import { projectionsAside } from '@portal/platform/read-models/projection-faults';
import type { Projection } from '../projection.ts';

export interface PartitionBatch {
  topic: string;
  partition: number;
  /** How many partitions the topic has: the checkpoint moves only once each has a watermark. */
  partitions: number;
  /** Who applies it (shown on the lag screen). */
  owner: string;
  messages: readonly TopicMessage[];
  /** The offset after the batch's last message. */
  nextOffset: number;
  /** How soon a projection set aside in this batch is tried again. */
  retry?: RetryPolicy;
}

export interface PartitionResult {
  applied: number;
  watermark: Checkpoint;
  /** The read models' checkpoint after the batch. */
  checkpoint: Checkpoint;
}

/**
 * Applies partitions' messages in one transaction with each partition's watermark, so each event
 * takes effect exactly once: a message at or before its partition's watermark (redelivered after
 * a crash or a rebalance, or published twice by a restarted relay) is skipped. The batches of
 * one fetch go together: one transaction, one move of the checkpoint (every partition's
 * watermark at once, so an event is visible as soon as it is applied), instead of one each,
 * taking turns on the checkpoint's row. At most one batch per partition. Several projectors apply
 * different partitions at once; what one event does to a course's shared rows (its counts, its
 * rounds) is serialised with what events of other partitions do to the same course (a lock per
 * course), and the projections are written so that the order in which different streams arrive
 * does not change the result. A rare deadlock between two projectors is PostgreSQL's to break:
 * the losing transaction is rolled back and applied again.
 */
export async function applyPartitionBatches(
  db: SqlDatabase,
  schema: string,
  projections: readonly Projection[],
  batches: readonly PartitionBatch[],
): Promise<PartitionResult[]> {
  const [first] = batches;
  if (!first) return [];
  if (new Set(batches.map((batch) => batch.partition)).size < batches.length)
    throw new Error('at most one batch per partition in one transaction');
  return db.transaction(async (tx) => {
    // A rebuild swapping the read models takes this table exclusively: wait for it, or make it wait.
    await tx.query(`LOCK TABLE ${schema}.checkpoints IN ROW SHARE MODE`);
    // Partitions' rows locked in one order, as any other projector locks them.
    const inOrder = [...batches].sort((a, b) => a.partition - b.partition);
    const fresh: StoredEvent[] = [];
    const watermarks = new Map<PartitionBatch, { watermark: Checkpoint; applied: number }>();
    for (const batch of inOrder) {
      let watermark = await claimPartition(tx, schema, batch.topic, batch.partition);
      let applied = 0;
      for (const message of batch.messages) {
        const at = message.kind === 'event' ? checkpointOf(message.event) : message.checkpoint;
        if (isAtOrBefore(at, watermark)) continue;
        if (message.kind === 'event') {
          fresh.push(message.event);
          applied++;
        }
        watermark = at;
      }
      watermarks.set(batch, { watermark, applied });
    }
    // Each partition is in the log's order; together they are put back in it.
    if (batches.length > 1) fresh.sort((a, b) => (isAtOrBefore(checkpointOf(a), checkpointOf(b)) ? -1 : 1));
    // A batch with course events changes course rows as it goes: it locks its courses first. A
    // batch of scans only writes rows of its own streams until it recounts: it locks just before,
    // so such batches run side by side until then. Every lock set is taken at once, in one order.
    // Locks in one order everywhere: the faults (shared; see ../apply.ts), then the courses.
    await projectionsAside(tx, schema);
    const courseEvents = fresh.some((event) => event.streamId.startsWith('course-'));
    if (courseEvents) await lockCourses(tx, fresh);
    if (fresh.length > 0) {
      await applyEvents(tx, schema, projections, fresh, {
        retry: first.retry,
        beforeDeferred: courseEvents ? undefined : () => lockCourses(tx, fresh),
      });
    }
    const courses = fresh.length > 0 ? coursesOf(fresh) : null;
    for (const batch of inOrder) {
      const { watermark, applied } = watermarks.get(batch)!;
      await tx.query(
        `UPDATE ${schema}.partition_progress
            SET transaction_id = $3::xid8, position = $4, next_offset = greatest(next_offset, $5), owner = $6,
                applied_events = applied_events + $7, updated_at = now()
          WHERE topic = $1 AND partition = $2`,
        [
          batch.topic,
          batch.partition,
          watermark.transactionId,
          watermark.position,
          batch.nextOffset,
          batch.owner,
          applied,
        ],
      );
    }
    const before = await readCheckpoint(tx, schema, true);
    const checkpoint = await advanceCheckpoint(tx, schema, first.topic, first.partitions, before);
    await announce(tx, checkpoint === before ? null : checkpoint, courses);
    return batches.map((batch) => ({ ...watermarks.get(batch)!, checkpoint }));
  });
}

/** One partition's batch on its own (applyPartitionBatches). */
export const applyPartitionBatch = async (
  db: SqlDatabase,
  schema: string,
  projections: readonly Projection[],
  batch: PartitionBatch,
): Promise<PartitionResult> => (await applyPartitionBatches(db, schema, projections, [batch]))[0]!;

/**
 * Locks the partition's row (a projector that lost the partition in a rebalance and is still
 * finishing a batch waits here, then finds the work done), creating it at the read models'
 * checkpoint the first time: everything up to that point is already applied.
 */
async function claimPartition(tx: Sql, schema: string, topic: string, partition: number): Promise<Checkpoint> {
  await tx.query(
    `INSERT INTO ${schema}.partition_progress (topic, partition, transaction_id, position)
     SELECT $1, $2, transaction_id, position FROM ${schema}.checkpoints WHERE name = 'projector'
     ON CONFLICT (topic, partition) DO NOTHING`,
    [topic, partition],
  );
  const [row] = await tx.query<{ transaction_id: string; position: string }>(
    `SELECT transaction_id::text, position::text FROM ${schema}.partition_progress
      WHERE topic = $1 AND partition = $2 FOR UPDATE`,
    [topic, partition],
  );
  return { transactionId: row!.transaction_id, position: Number(row!.position) };
}

/**
 * Moves the read models' checkpoint to the earliest watermark of all partitions. The checkpoint
 * row was locked just before, and this statement reads what committed meanwhile, so the last
 * projector to commit always sees every other's watermark.
 */
async function advanceCheckpoint(
  tx: Sql,
  schema: string,
  topic: string,
  partitions: number,
  current: Checkpoint,
): Promise<Checkpoint> {
  const rows = await tx.query<{ transaction_id: string; position: string }>(
    `SELECT transaction_id::text, position::text FROM ${schema}.partition_progress
      WHERE topic = $1 ORDER BY transaction_id, position`,
    [topic],
  );
  if (rows.length < partitions) return current;
  const earliest = { transactionId: rows[0]!.transaction_id, position: Number(rows[0]!.position) };
  if (isAtOrBefore(earliest, current)) return current;
  await writeCheckpoint(tx, schema, earliest);
  return earliest;
}
