import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailRequested, emailStream } from '@portal/contracts/outreach/outreach.events';
import { seal } from '@portal/platform/privacy/personal-data';
import { testDatabases } from '@portal/platform/testing/databases';
import { INTERRUPTED_AFTER_MINUTES } from '@portal/query-api/core/outreach-tables';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { startSmtpSink } from '../src/testing/smtp-sink.ts';
import { TEST_ADMIN, type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const FROM = 'Course Portal <no-reply@course-portal.test>';

describe.each(testDatabases())('contact messages and e-mail on $name', (database) => {
  let portal: TestPortal;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    smtp = await startSmtpSink({ refuseDomain: 'nowhere.test' });
    portal = await openTestPortal(database, { mail: { smtpUrl: smtp.url, from: FROM } });
  });
  afterAll(async () => {
    await portal.close();
    await smtp.close();
  });
  const { call, approvedMember } = portalCalls(() => portal);
  const inThai = (url: string, payload: object, token = '') =>
    portal.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { 'accept-language': 'th', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  const inbox = async () => (await call('GET', '/api/admin/contact-messages', portal.adminToken)).json();
  const outbox = async () => (await call('GET', '/api/admin/emails', portal.adminToken)).json();

  it('takes contact messages from anyone, checks them field by field, and lists them for admins only', async () => {
    const bad = await inThai('/api/contact', {
      name: ' ',
      email: 'not-an-address',
      subject: 'x'.repeat(101),
      message: 'short',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      name: 'ชื่อผู้ติดต่อจำเป็นต้องกรอก',
      email: 'รูปแบบอีเมลไม่ถูกต้อง',
      subject: 'หัวข้อต้องไม่เกิน 100 ตัวอักษร',
      message: 'ข้อความต้องมีอย่างน้อย 10 ตัวอักษร',
    });
    const missing = await inThai('/api/contact', {});
    expect(missing.json().errors).toMatchObject({ name: 'ชื่อผู้ติดต่อจำเป็นต้องกรอก', email: 'อีเมลจำเป็นต้องกรอก' });
    expect((await inbox()).total).toBe(0);

    const visitor = await inThai('/api/contact', {
      name: 'สมหญิง ใจดี',
      email: 'somying@example.test',
      message: 'อยากทราบตารางเรียนเดือนหน้าค่ะ',
    });
    expect(visitor.statusCode).toBe(201);
    expect(visitor.json()).toMatchObject({ success: true, message: 'ส่งข้อความเรียบร้อยแล้ว!' });
    const member = await approvedMember('Mina Writes');
    const signedIn = await call('POST', '/api/contact', member.token, {
      name: 'Mina Writes',
      email: 'mina@example.test',
      subject: 'Parking',
      message: 'Is there parking near the hall?',
    });
    expect(signedIn.statusCode).toBe(201);

    const listed = await inbox();
    expect(listed).toMatchObject({ success: true, total: 2, page: 1, pages: 1 });
    expect(listed.contactMessages).toMatchObject([
      { name: 'Mina Writes', email: 'mina@example.test', subject: 'Parking', senderId: member.id },
      { name: 'สมหญิง ใจดี', subject: '', message: 'อยากทราบตารางเรียนเดือนหน้าค่ะ', senderId: null },
    ]);
    expect((await call('GET', '/api/admin/contact-messages', member.token)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/contact-messages', '')).statusCode).toBe(401);
    expect((await call('GET', '/api/admin/contact-messages?page=0', portal.adminToken)).json().errors).toEqual({
      page: 'The page number is not valid.',
    });
  });

  it('sends e-mail through the SMTP server, records each attempt, and says so when the server refuses', async () => {
    const member = await approvedMember('Nok Member');
    const letter = { to: 'learner@example.test', subject: 'รอบเรียนวันจันทร์', message: 'พบกันที่ห้อง 3 เวลา 9 โมงครับ' };
    expect((await call('POST', '/api/emails', member.token, letter)).statusCode).toBe(403);
    expect((await call('POST', '/api/emails', '', letter)).statusCode).toBe(401);

    const incomplete = await inThai('/api/emails', { to: 'learner@', subject: '', message: '' }, portal.adminToken);
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json().errors).toEqual({
      to: 'รูปแบบอีเมลไม่ถูกต้อง!',
      subject: 'กรุณากรอกหัวข้อ',
      message: 'กรุณากรอกข้อความ',
    });
    expect((await outbox()).total).toBe(0);
    expect(smtp.received).toHaveLength(0);

    const sent = await call('POST', '/api/emails', portal.adminToken, letter);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ success: true, transport: 'smtp', message: 'The e-mail has been sent.' });
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.to).toMatchObject({ text: 'learner@example.test' });
    expect(mail!.from?.value).toEqual([{ name: 'Course Portal', address: 'no-reply@course-portal.test' }]);
    expect(mail!.subject).toBe('รอบเรียนวันจันทร์');
    expect(mail!.text?.trim()).toBe('พบกันที่ห้อง 3 เวลา 9 โมงครับ');

    const refused = await call('POST', '/api/emails', portal.adminToken, { ...letter, to: 'someone@nowhere.test' });
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({
      success: false,
      title: 'Error sending the e-mail',
      message: 'The e-mail could not be sent!',
    });
    expect(smtp.received).toHaveLength(1);

    const listed = await outbox();
    expect(listed.total).toBe(2);
    expect(listed.emails).toMatchObject([
      { to: 'someone@nowhere.test', status: 'failed', failure: expect.stringContaining('No such mailbox') },
      { to: 'learner@example.test', status: 'sent', subject: 'รอบเรียนวันจันทร์', senderName: expect.any(String) },
    ]);
    // The server's refusal names the address; the log and the read models keep it without it.
    expect(listed.emails[0].failure).not.toContain('someone@nowhere.test');
    const failures = await portal.db.query<{ text: string }>(
      `SELECT data::text AS text FROM es.events WHERE type = 'EmailFailed' UNION ALL
       SELECT failure FROM rm.emails_sealed WHERE failure IS NOT NULL`,
    );
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(failures)).not.toContain('nowhere.test');
    expect((await call('GET', '/api/admin/emails', member.token)).statusCode).toBe(403);
  });

  it('answers a repeated request as the first one went, with the same dialog, and sends nothing again', async () => {
    const repeat = (key: string, to: string) =>
      portal.app.inject({
        method: 'POST',
        url: '/api/emails',
        payload: { to, subject: 'Again', message: 'Once only, please.' },
        headers: { authorization: `Bearer ${portal.adminToken}`, 'idempotency-key': key, 'accept-language': 'en' },
      });
    const delivered = smtp.received.length;
    const first = await repeat('email-repeat-refused', 'someone@nowhere.test');
    const second = await repeat('email-repeat-refused', 'someone@nowhere.test');
    expect(first.statusCode).toBe(502);
    expect(second.statusCode).toBe(502);
    expect(second.json()).toEqual(first.json());
    expect(second.json()).toMatchObject({
      title: 'Error sending the e-mail',
      message: 'The e-mail could not be sent!',
    });

    const sent = await repeat('email-repeat-sent', 'learner@example.test');
    const again = await repeat('email-repeat-sent', 'learner@example.test');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(sent.json());
    expect(again.json()).toMatchObject({ transport: 'smtp', message: 'The e-mail has been sent.' });
    expect(smtp.received).toHaveLength(delivered + 1);
  });
});

describe.each(testDatabases())('e-mail without an SMTP server on $name', (database) => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(database);
  });
  afterAll(() => portal.close());
  const { call } = portalCalls(() => portal);

  it('keeps the e-mail in the outbox, where admins can read it', async () => {
    const sent = await call('POST', '/api/emails', portal.adminToken, {
      to: 'learner@example.test',
      subject: 'Welcome',
      message: 'See you on Monday.',
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({
      transport: 'outbox',
      message: 'The e-mail was kept in the outbox (no mail server is set up).',
    });
    const listed = (await call('GET', '/api/admin/emails', portal.adminToken)).json();
    expect(listed.emails).toMatchObject([
      { to: 'learner@example.test', subject: 'Welcome', message: 'See you on Monday.', status: 'outbox' },
    ]);
  });

  it('answers a repeated request that the outbox kept as kept, not as sent', async () => {
    const keep = () =>
      portal.app.inject({
        method: 'POST',
        url: '/api/emails',
        payload: { to: 'learner@example.test', subject: 'Twice', message: 'Kept once.' },
        headers: { authorization: `Bearer ${portal.adminToken}`, 'idempotency-key': 'email-repeat-outbox' },
      });
    const first = await keep();
    const again = await keep();
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.json()).toMatchObject({ transport: 'outbox' });
  });

  it('says an e-mail whose sending was cut off is interrupted, not sending for ever', async () => {
    // What a stop between the two events leaves: the request recorded, no outcome.
    const adminId = (await call('POST', '/api/login', '', TEST_ADMIN)).json().partner._id as string;
    let position = 0;
    for (const [minutesAgo, subject] of [
      [INTERRUPTED_AFTER_MINUTES + 1, 'Cut off'],
      [1, 'Still going'],
    ] as const) {
      const content = await seal(portal.db, adminId, {
        to: 'learner@example.test',
        subject,
        message: 'Hello',
        senderName: 'Admin',
        senderEmail: 'admin@example.test',
      });
      const requestedAt = new Date(Date.now() - minutesAgo * 60_000).toISOString();
      const appended = await portal.store.append(
        emailStream(`${minutesAgo}`.padStart(24, '0')),
        [EmailRequested.create({ content, senderId: adminId, requestedAt })],
        { expectedRevision: 'no_stream' },
      );
      position = appended.position;
    }
    const listed = await portal.app.inject({
      method: 'GET',
      url: '/api/admin/emails',
      headers: { authorization: `Bearer ${portal.adminToken}`, 'x-min-position': String(position) },
    });
    const bySubject = Object.fromEntries(
      listed.json().emails.map((email: { subject: string; status: string }) => [email.subject, email.status]),
    );
    expect(bySubject).toMatchObject({ 'Cut off': 'interrupted', 'Still going': 'sending', Welcome: 'outbox' });
  });
});
