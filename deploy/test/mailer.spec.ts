import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '@portal/command-api/outreach/mailer';
import { startSmtpSink } from '../src/testing/smtp-sink.ts';

const FROM = 'Course Portal <no-reply@course-portal.test>';
const letter = (n: number) => ({ to: `member${n}@example.test`, subject: `Letter ${n}`, text: `Body ${n}` });

/**
 * The mailer loads nodemailer and makes its transport for its first letter (not at the portal's
 * start): 64 letters sent at once as the first ones must all go, each once, through one transport.
 */
describe('the mailer, its transport made for the first letter', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    smtp = await startSmtpSink();
  });
  afterAll(() => smtp.close());

  it('sends 64 first letters at once through the SMTP server: all 64 delivered, each once', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, from: FROM });
    const deliveries = await Promise.all(Array.from({ length: 64 }, (_, n) => mailer.send(letter(n))));
    await mailer.close();
    expect(deliveries.every((delivery) => delivery.transport === 'smtp')).toBe(true);
    expect(new Set(deliveries.map((delivery) => delivery.messageId)).size).toBe(64);
    expect(smtp.received).toHaveLength(64);
    expect(new Set(smtp.received.map((mail) => mail.subject)).size).toBe(64);
  });

  it('keeps 64 first letters at once in the outbox without a server, and closes one that never sent', async () => {
    const outbox = createMailer({ from: FROM });
    const deliveries = await Promise.all(Array.from({ length: 64 }, (_, n) => outbox.send(letter(n))));
    await outbox.close();
    expect(deliveries.every((delivery) => delivery.transport === 'outbox')).toBe(true);
    expect(new Set(deliveries.map((delivery) => delivery.messageId)).size).toBe(64);
    await expect(createMailer({ smtpUrl: smtp.url, from: FROM }).close()).resolves.toBeUndefined();
  });
});
