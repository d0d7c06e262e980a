import { describe, expect, it } from 'vitest';
import { PersonalDataErased } from '@portal/contracts/accounts/account.events';
import {
  ContactMessageReceived,
  EmailFailed,
  EmailRequested,
  EmailSent,
} from '@portal/contracts/outreach/outreach.events';
import { seal } from '@portal/platform/privacy/personal-data';
import { projectionSpecification } from '../../testing/projection-specification.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 8, minute)).toISOString();
const member = 'cccccccccccccccccccc0001';
const partner = 'cccccccccccccccccccc0002';

/**
 * The inbox and outbox, from a small story: a visitor and a member write in, a partner sends two
 * e-mails (one kept in the outbox, one refused by the SMTP server), then the member is erased:
 * their message stays counted, its words are gone.
 */
describe('the outreach projection', () => {
  const spec = projectionSpecification();

  it('keeps messages and e-mails with how each went, and forgets an erased sender’s words', async () => {
    const contact = (subject: string, sealedFor: string) =>
      seal(spec.db, sealedFor, { name: 'Ann', email: 'ann@example.com', subject, message: 'Hello' });
    const email = (subject: string) =>
      seal(spec.db, partner, {
        to: 'x@example.com',
        subject,
        message: 'Hi',
        senderName: 'Pat',
        senderEmail: 'p@e.com',
      });
    await spec.given(
      [
        'contact-m1',
        [
          ContactMessageReceived.create({
            content: await contact('Visitor', 'contact-m1'),
            senderId: null,
            receivedAt: at(1),
          }),
        ],
      ],
      [
        'contact-m2',
        [
          ContactMessageReceived.create({
            content: await contact('Member', member),
            senderId: member,
            receivedAt: at(2),
          }),
        ],
      ],
      [
        'email-e1',
        [
          EmailRequested.create({ content: await email('Kept'), senderId: partner, requestedAt: at(3) }),
          EmailSent.create({ transport: 'outbox', messageId: null, sentAt: at(4) }),
        ],
      ],
      [
        'email-e2',
        [
          EmailRequested.create({ content: await email('Refused'), senderId: partner, requestedAt: at(5) }),
          EmailFailed.create({ reason: '550 no such user', failedAt: at(6) }),
        ],
      ],
      [`account-${member}`, [PersonalDataErased.create({ erasedAt: at(7) })]],
    );
    expect(await spec.rows(`SELECT id, sender_id, subject FROM rm.contact_messages ORDER BY id`)).toEqual([
      { id: 'm1', sender_id: null, subject: 'Visitor' },
      { id: 'm2', sender_id: member, subject: '' },
    ]);
    expect(await spec.rows(`SELECT id, status, transport, failure, subject FROM rm.emails ORDER BY id`)).toEqual([
      { id: 'e1', status: 'outbox', transport: 'outbox', failure: null, subject: 'Kept' },
      { id: 'e2', status: 'failed', transport: null, failure: '550 no such user', subject: 'Refused' },
    ]);
  });
});
