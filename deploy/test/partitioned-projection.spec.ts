import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TopicMessage } from '@portal/platform/distribution/messages';
import type { StoredEvent } from '@portal/contracts/envelope';
import { readCheckpoint } from '@portal/platform/read-models/checkpoint';
import { checkpointOf } from '@portal/platform/store/port';
import { testDatabases } from '@portal/platform/testing/databases';
import { retryFault } from '@portal/projector/apply';
import { prepareReadModels } from '@portal/projector/read-models';
import { readFaults } from '@portal/platform/read-models/projection-faults';
import {
  type PartitionBatch,
  applyPartitionBatch,
  applyPartitionBatches,
} from '@portal/projector/kafka/apply-partition';
import type { Projection } from '@portal/projector/projection';
import { projections } from '@portal/projector/projections/index';
import { seedActivity } from '../src/testing/activity.ts';
import { readModelDifferences, readModelSizes, wholeLog } from '@portal/projector/testing/read-model-copies';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const PARTITIONS = 6;
const TOPIC = 'portal.events';
const partitionOf = (streamId: string) =>
  [...streamId].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7) % PARTITIONS;

/**
 * What projectors consuming Kafka do, without the broker: the log split by stream into
 * partitions, each applied in its own order but the partitions in an order of their own, as
 * several projectors would. The result must equal the single projector's, row for row.
 */
describe.each(testDatabases())('read models built partition by partition on $name', (database) => {
  let portal: TestPortal;
  let events: StoredEvent[];
  let byPartition: TopicMessage[][];
  beforeAll(async () => {
    portal = await openTestPortal(database);
    await seedActivity(portal);
    // The portal's own projector (reading the log directly) is the reference: wait until it has it all.
    for (let tries = 0; ; tries++) {
      events = await wholeLog(portal.store);
      const reached = await readCheckpoint(portal.db, 'rm');
      if (reached.position === events[events.length - 1]!.position) break;
      if (tries > 100) throw new Error('the projector did not catch up');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const last = checkpointOf(events[events.length - 1]!);
    byPartition = Array.from({ length: PARTITIONS }, (_, partition) => [
      ...events
        .filter((event) => partitionOf(event.streamId) === partition)
        .map((event): TopicMessage => ({ kind: 'event', event })),
      { kind: 'tick', checkpoint: last },
    ]);
  }, 60_000);
  afterAll(() => portal.close());

  const batchOf = (partition: number, messages: TopicMessage[]): PartitionBatch => ({
    topic: TOPIC,
    partition,
    partitions: PARTITIONS,
    owner: 'test',
    messages,
    nextOffset: 0,
  });

  const apply = (
    schema: string,
    partition: number,
    messages: TopicMessage[],
    using: readonly Projection[] = projections,
  ) => applyPartitionBatch(portal.db, schema, using, batchOf(partition, messages));

  it('equals the single projector when the partitions of each fetch are applied together, and moves the checkpoint with them', async () => {
    const schema = 'kx_together';
    await portal.db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await prepareReadModels(portal.db, schema, projections);
    // Each fetch: a few messages of every partition that has some left, in one transaction.
    const piece = 4;
    for (let from = 0; byPartition.some((messages) => messages.length > from); from += piece) {
      const fetch = byPartition
        .map((messages, partition) => batchOf(partition, messages.slice(from, from + piece)))
        .filter((batch) => batch.messages.length > 0)
        .reverse();
      const results = await applyPartitionBatches(portal.db, schema, projections, fetch);
      expect(results.map((result) => result.applied)).toEqual(
        fetch.map((batch) => batch.messages.filter((message) => message.kind === 'event').length),
      );
      // Redelivered together: skipped, every one.
      const again = await applyPartitionBatches(portal.db, schema, projections, fetch);
      expect(again.map((result) => result.applied)).toEqual(fetch.map(() => 0));
    }
    expect(await readModelDifferences(portal.db, 'rm', schema)).toEqual([]);
    expect(await readCheckpoint(portal.db, schema)).toEqual(checkpointOf(events[events.length - 1]!));
    await expect(
      applyPartitionBatches(portal.db, schema, projections, [batchOf(0, []), batchOf(0, [])]),
    ).rejects.toThrow('one batch per partition');
  });

  it('equals the single projector whatever order the partitions arrive in, and a redelivery changes nothing', async () => {
    expect(new Set(events.map((event) => partitionOf(event.streamId))).size).toBeGreaterThan(3);

    // Whole partitions one after another (one projector far behind the others), or small pieces.
    for (const [schema, order, piece] of [
      ['kx_forward', [0, 1, 2, 3, 4, 5], Infinity],
      ['kx_backward', [5, 4, 3, 2, 1, 0], Infinity],
      ['kx_shuffled', [2, 5, 0, 3, 1, 4], 3],
    ] as const) {
      await portal.db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await prepareReadModels(portal.db, schema, projections);
      // Each partition's order kept, the partitions' mixed.
      const cursors = new Array<number>(PARTITIONS).fill(0);
      while (cursors.some((at, partition) => at < byPartition[partition]!.length)) {
        for (const partition of order) {
          const messages = byPartition[partition]!.slice(cursors[partition], cursors[partition]! + piece);
          if (messages.length === 0) continue;
          await apply(schema, partition, messages);
          // Redelivered, as after a crash before the offset was committed: skipped.
          expect((await apply(schema, partition, messages)).applied).toBe(0);
          cursors[partition]! += messages.length;
        }
      }
      expect(await readModelDifferences(portal.db, 'rm', schema)).toEqual([]);
      expect(await readCheckpoint(portal.db, schema)).toEqual(checkpointOf(events[events.length - 1]!));
    }
    const sizes = await readModelSizes(portal.db, 'rm');
    for (const table of [
      'accounts',
      'courses',
      'rounds',
      'enrolments',
      'attendance',
      'scan_attempts',
      'notifications',
    ]) {
      expect(sizes[table], table).toBeGreaterThan(0);
    }
  });

  it('moves the checkpoint only when every partition has reached a point', async () => {
    const schema = 'kx_partial';
    await portal.db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await prepareReadModels(portal.db, schema, projections);
    for (let partition = 0; partition < PARTITIONS - 1; partition++)
      await apply(schema, partition, byPartition[partition]!);
    expect((await readCheckpoint(portal.db, schema)).position).toBe(0);
    await apply(schema, PARTITIONS - 1, byPartition[PARTITIONS - 1]!);
    expect(await readCheckpoint(portal.db, schema)).toEqual(checkpointOf(events[events.length - 1]!));
  });

  it('leaves no trace of a batch that fails halfway, and applies it whole when delivered again', async () => {
    const schema = 'kx_failing';
    await portal.db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await prepareReadModels(portal.db, schema, projections);
    const partition = byPartition.findIndex((messages) => messages.length > 4);
    const messages = byPartition[partition]!;
    const doomed = (messages[2] as { event: StoredEvent }).event.position;
    // A projection that throws is set aside on its own (tests of that in projector/); here the
    // batch itself fails after its projections ran: its progress cannot be written.
    const failing: Projection = {
      name: 'failing',
      version: 1,
      createTables: async () => {},
      apply: async (sql, at, event) => {
        if (event.position === doomed) await sql.query(`ALTER TABLE ${at}.partition_progress RENAME TO progress_gone`);
      },
    };
    await expect(apply(schema, partition, messages, [...projections, failing])).rejects.toThrow('partition_progress');
    expect(Object.values(await readModelSizes(portal.db, schema)).every((n) => n === 0)).toBe(true);
    const [progress] = await portal.db.query(`SELECT count(*)::int AS n FROM ${schema}.partition_progress`);
    expect(progress).toEqual({ n: 0 });
    expect((await apply(schema, partition, messages)).applied).toBe(messages.length - 1);
  });

  it('sets a failing read model aside across partitions, lets the others go on, and catches it up exactly', async () => {
    const schema = 'kx_aside';
    await portal.db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await prepareReadModels(portal.db, schema, projections);
    const doomed = events.find((event) => event.type === 'AttendanceScanned')!.position;
    const broken = { now: true };
    const fragile = projections.map((projection): Projection =>
      projection.name === 'attendance'
        ? {
            ...projection,
            apply: async (sql, at, event, personal, batch) => {
              if (broken.now && event.position === doomed) throw new Error('attendance cannot apply this');
              await projection.apply(sql, at, event, personal, batch);
            },
          }
        : projection,
    );
    const cursors = new Array<number>(PARTITIONS).fill(0);
    while (cursors.some((at, partition) => at < byPartition[partition]!.length)) {
      for (const partition of [3, 0, 5, 1, 4, 2]) {
        const messages = byPartition[partition]!.slice(cursors[partition], cursors[partition]! + 4);
        if (messages.length === 0) continue;
        await apply(schema, partition, messages, fragile);
        cursors[partition]! += messages.length;
      }
    }
    // The read models' checkpoint reached the end; the attendance read model is set aside.
    expect(await readCheckpoint(portal.db, schema)).toEqual(checkpointOf(events[events.length - 1]!));
    const [fault] = await readFaults(portal.db, schema);
    expect(fault).toMatchObject({ projection: 'attendance', position: doomed, attempts: 1 });
    expect(fault!.missed).toBeGreaterThan(0);
    const differing = await readModelDifferences(portal.db, 'rm', schema);
    expect(differing.length).toBeGreaterThan(0);

    expect(await retryFault(portal.db, schema, fragile, 'attendance')).toBe('failed');
    broken.now = false;
    let outcome = await retryFault(portal.db, schema, fragile, 'attendance');
    while (outcome === 'progress') outcome = await retryFault(portal.db, schema, fragile, 'attendance');
    expect(outcome).toBe('rejoined');
    expect(await readFaults(portal.db, schema)).toEqual([]);
    expect(await readModelDifferences(portal.db, 'rm', schema)).toEqual([]);
  });
});
