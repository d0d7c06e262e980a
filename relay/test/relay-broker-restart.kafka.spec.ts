import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerStartedByScript, restartBroker } from '@portal/deploy/testing/kafka-broker';
import { createEventStore } from '@portal/platform/store/event-store';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { testDatabases } from '@portal/platform/testing/databases';
import { kafkaSkipReason, testBrokers, testTopic } from '@portal/platform/testing/kafka';
import { startRelay } from '../src/kafka-relay.ts';

const skip = kafkaSkipReason() ?? (brokerStartedByScript() ? null : 'the broker was not started by kafka.sh');
if (skip && process.env.CI) throw new Error(`${skip}: CI must restart the broker in this test.`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The relay publishing without pause while the broker restarts, its ticks sent often (every
 * millisecond here) so that they and the batches of events are sent close together. Found on CI:
 * after a restart, its idempotent producer was refused every send from then on ("The broker
 * received an out of order sequence number"), and the read models behind Kafka never caught up.
 * It must go on publishing up to the log's end. (The refusal came under a full test suite's load;
 * three runs of this test alone on the code before did not meet it, so this test guards the
 * outcome, and the cause is named in kafka-relay.ts.)
 */
describe.skipIf(skip !== null)('the relay through broker restarts', () => {
  const database = testDatabases().at(-1)!; // PostgreSQL where there is one
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await createEventStoreSchema(db);
  });
  afterAll(() => drop());

  it(`publishes up to the log's end after each restart, on ${database.name}`, async () => {
    const store = createEventStore(db);
    const topic = testTopic('relay-restarts');
    const relay = await startRelay({
      store,
      db,
      kafka: { brokers: testBrokers(), clientId: 'relay-restarts', topic },
      tickEveryMs: 1,
      onError: () => {},
    });
    let appending = true;
    let appended = 0;
    const writer = (async () => {
      while (appending) {
        await store.append(`noted-${appended % 13}`, [{ type: 'Noted', schemaVersion: 1, data: { n: appended } }], {
          expectedRevision: 'any',
        });
        appended++;
        await sleep(2);
      }
    })();
    const relayed = async () =>
      Number(
        (await db.query<{ position: string }>(`SELECT position FROM relay.checkpoints WHERE topic = $1`, [topic]))[0]
          ?.position ?? 0,
      );
    const head = async () =>
      Number((await db.query<{ position: string }>(`SELECT max(position) AS position FROM es.events`))[0]!.position);
    try {
      for (let restart = 0; restart < 2; restart++) {
        await sleep(1_000);
        await restartBroker();
        // Publishing again: the checkpoint moves past where the log stood after the restart.
        const after = await head();
        const deadline = Date.now() + 30_000;
        while ((await relayed()) < after && Date.now() < deadline) await sleep(100);
        expect(
          await relayed(),
          `published up to ${after} within 30 s of restart ${restart + 1}`,
        ).toBeGreaterThanOrEqual(after);
      }
    } finally {
      appending = false;
      await writer;
      await relay.stop();
    }
    expect(appended).toBeGreaterThan(100);
  }, 240_000);
});
