import type { Consumer, KafkaMessage } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_PARTITIONS, kafkaClient } from '@portal/platform/distribution/kafka';
import { startRelay } from '../src/kafka-relay.ts';
import { decodeMessage, eventOf } from '@portal/platform/distribution/messages';
import type { StoredEvent } from '@portal/contracts/envelope';
import { createEventStore } from '@portal/platform/store/event-store';
import type { EventStore } from '@portal/platform/store/port';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { testDatabases } from '@portal/platform/testing/databases';
import { kafkaSkipReason, testBrokers, testTopic } from '@portal/platform/testing/kafka';

const event = (n: number) => ({ type: 'Noted', schemaVersion: 1, data: { n } });

describe.skipIf(kafkaSkipReason())('the relay to a real Kafka broker', () => {
  describe.each(testDatabases())('on $name', (database) => {
    let db: SqlDatabase;
    let store: EventStore;
    let drop: () => Promise<void>;
    const topic = testTopic('relay');
    const received: { key: string; position: number; partition: number; message: KafkaMessage }[] = [];
    const ticks: { partition: number; position: number }[] = [];
    const decodeEvent = (value: Buffer | null) => eventOf({ value }) as StoredEvent;
    let consumer: Consumer;

    beforeAll(async () => {
      const kafka = await kafkaClient({ brokers: testBrokers(), clientId: 'relay-test' });
      consumer = kafka.consumer({ groupId: `${topic}.reader` });
      ({ db, drop } = await database.open());
      await createEventStoreSchema(db);
      store = createEventStore(db);
    });
    afterAll(async () => {
      await consumer.disconnect();
      await drop();
    });

    const appendTo = async (stream: string, from: number, count: number) => {
      for (let n = from; n < from + count; n++) await store.append(stream, [event(n)], { expectedRevision: 'any' });
    };
    const until = async (count: number) => {
      const deadline = Date.now() + 20_000;
      while (received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    };

    it('publishes every committed event keyed by stream, in order, and resumes after a restart without loss', async () => {
      await appendTo('alpha-1', 0, 5);
      await appendTo('beta-1', 0, 5);
      let relay = await startRelay({ store, db, kafka: { brokers: testBrokers(), clientId: 'relay', topic } });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message, partition }) => {
          const decoded = decodeMessage(message);
          if (decoded.kind === 'tick') {
            ticks.push({ partition, position: decoded.checkpoint.position });
            return;
          }
          received.push({ key: message.key!.toString(), position: decoded.event.position, partition, message });
        },
      });
      await until(10);
      expect(received).toHaveLength(10);
      for (const message of received) {
        const stored = decodeEvent(message.message.value);
        expect(message.key).toBe(stored.streamId);
        expect(message.message.headers?.position?.toString()).toBe(String(stored.position));
      }
      // Each stream lives in one partition, in its order.
      for (const stream of ['alpha-1', 'beta-1']) {
        const mine = received.filter((m) => m.key === stream);
        expect(new Set(mine.map((m) => m.partition)).size).toBe(1);
        expect(mine.map((m) => decodeEvent(m.message.value).data)).toEqual([0, 1, 2, 3, 4].map((n) => ({ n })));
      }
      // Every partition, even one no stream of the batch lives in, hears that the batch is complete.
      const last = Math.max(...received.map((m) => m.position));
      const deadline = Date.now() + 10_000;
      const ticked = () => new Set(ticks.filter((t) => t.position === last).map((t) => t.partition)).size;
      while (ticked() < EVENTS_PARTITIONS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(ticked()).toBe(EVENTS_PARTITIONS);

      // Stopped, the log moves on; started again, it publishes what it missed, and nothing twice.
      await relay.stop();
      await appendTo('alpha-1', 5, 3);
      await appendTo('gamma-1', 0, 2);
      relay = await startRelay({ store, db, kafka: { brokers: testBrokers(), clientId: 'relay', topic } });
      await until(15);
      await new Promise((r) => setTimeout(r, 500));
      expect(received.map((m) => m.position).sort((a, b) => a - b)).toEqual(
        (await store.readAll({ transactionId: '0', position: 0 }, 100)).map((e) => e.position),
      );
      expect(relay.state().published).toBe(5);
      await relay.stop();
    });
  });
});
