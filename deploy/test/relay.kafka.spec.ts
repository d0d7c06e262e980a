import type { Consumer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaClient } from '@portal/platform/distribution/kafka';
import { eventOf } from '@portal/platform/distribution/messages';
import { sampleMember } from '@portal/platform/testing/accounts';
import { pgliteDatabase } from '@portal/platform/testing/databases';
import { kafkaSkipReason, testBrokers, testTopic } from '@portal/platform/testing/kafka';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

/** The embedded launcher with KAFKA_BROKERS: its relay publishes what the portal does, sealed. */
describe.skipIf(kafkaSkipReason())('the portal publishing its log to Kafka', () => {
  const topic = testTopic('portal');
  let portal: TestPortal;
  let consumer: Consumer;
  beforeAll(async () => {
    const kafka = await kafkaClient({ brokers: testBrokers(), clientId: 'portal-test' });
    consumer = kafka.consumer({ groupId: `${topic}.reader` });
    portal = await openTestPortal(pgliteDatabase, { kafka: { brokers: testBrokers(), topic } });
  });
  afterAll(async () => {
    await consumer.disconnect();
    await portal.close();
  });

  it('publishes a registration as it happened, with the person’s data still sealed', async () => {
    const person = sampleMember({ fullName: 'Kanya Kafka' });
    const answer = await portal.app.inject({ method: 'POST', url: '/api/members/register', payload: person });
    expect(answer.statusCode).toBe(201);
    const seen: { key: string; value: string; type: string | undefined }[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const event = eventOf(message);
        if (event) seen.push({ key: message.key!.toString(), value: message.value!.toString(), type: event.type });
      },
    });
    const deadline = Date.now() + 20_000;
    const registered = () => seen.find((m) => m.type === 'MemberRegistered');
    while (!registered() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(registered()?.key).toBe(`account-${answer.json()._id}`);
    for (const message of seen) {
      for (const secret of [person.fullName, person.personalId, person.personalEmail, person.personalPhone]) {
        expect(message.value).not.toContain(secret);
      }
    }
  });
});
