import { type Checkpoint, type EventStore, isAtOrBefore } from '../store/port.ts';
import { lagBehind } from './checkpoint.ts';
import { type Sql, isMissingTable } from '../store/sql.ts';

/**
 * When projectors consume the log from Kafka, each partition of the topic has its own point in
 * the log (its watermark: the last event or tick it applied), kept with the read models and
 * written in the same transaction as the rows. The read models' checkpoint is the earliest of
 * them. The projector writes this table; health and the admin's lag screen read it.
 */
export async function createPartitionTable(sql: Sql, schema: string): Promise<void> {
  await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.partition_progress (
    topic text NOT NULL,
    partition integer NOT NULL,
    transaction_id xid8 NOT NULL,
    position bigint NOT NULL,
    next_offset bigint NOT NULL DEFAULT 0,
    owner text,
    applied_events bigint NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (topic, partition)
  )`);
}

export interface PartitionProgress {
  topic: string;
  partition: number;
  watermark: Checkpoint;
  nextOffset: number;
  owner: string | null;
  appliedEvents: number;
  updatedAt: string;
}

export async function readPartitions(sql: Sql, schema: string): Promise<PartitionProgress[]> {
  const rows = await sql.query<{
    topic: string;
    partition: number;
    transaction_id: string;
    position: string;
    next_offset: string;
    owner: string | null;
    applied_events: string;
    updated_at: Date | string;
  }>(
    `SELECT topic, partition, transaction_id::text, position::text, next_offset::text, owner,
            applied_events::text, updated_at
       FROM ${schema}.partition_progress ORDER BY topic, partition`,
  );
  return rows.map((row) => ({
    topic: row.topic,
    partition: Number(row.partition),
    watermark: { transactionId: row.transaction_id, position: Number(row.position) },
    nextOffset: Number(row.next_offset),
    owner: row.owner,
    appliedEvents: Number(row.applied_events),
    updatedAt: new Date(row.updated_at).toISOString(),
  }));
}

export interface ProjectorLag {
  /** The projector process, as it names itself (PROJECTOR_NAME, or host/pid). */
  name: string;
  partitions: number[];
  /** Events applied since the read models were built, by this projector's partitions. */
  appliedEvents: number;
  /** Committed events after the earliest point its partitions reached: at most this many are still to come. */
  lagEvents: number;
  /** How long the oldest of those has waited, in seconds; 0 when caught up. */
  lagSeconds: number;
  updatedAt: string;
}

/**
 * How far each projector is behind the log, from the partitions it last held: the earliest
 * watermark among them, compared with the log.
 */
export async function projectorLags(store: EventStore, partitions: PartitionProgress[]): Promise<ProjectorLag[]> {
  const byOwner = new Map<string, PartitionProgress[]>();
  for (const row of partitions) {
    const owner = row.owner ?? '(none yet)';
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), row]);
  }
  const lags: ProjectorLag[] = [];
  for (const [owner, rows] of byOwner) {
    const earliest = rows.reduce((a, b) => (isAtOrBefore(b.watermark, a.watermark) ? b : a)).watermark;
    lags.push({
      name: owner,
      partitions: rows.map((row) => row.partition),
      appliedEvents: rows.reduce((sum, row) => sum + row.appliedEvents, 0),
      ...(await lagBehind(store, earliest)),
      updatedAt: rows
        .map((row) => row.updatedAt)
        .sort()
        .at(-1)!,
    });
  }
  return lags.sort((a, b) => a.name.localeCompare(b.name));
}

/** Each projector consuming Kafka and how far behind it is; empty when the projector reads the log itself. */
export async function kafkaProjectorLags(store: EventStore, readModels: Sql, schema = 'rm'): Promise<ProjectorLag[]> {
  const partitions = await readPartitions(readModels, schema).catch((error: unknown) => {
    if (isMissingTable(error)) return [];
    throw error;
  });
  return projectorLags(store, partitions);
}
