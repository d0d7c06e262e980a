import { describe, it } from 'vitest';
import {
  ContactMessageReceived,
  EmailFailed,
  EmailRequested,
  EmailSent,
} from '@portal/contracts/outreach/outreach.events';
import type { SealedBox } from '@portal/contracts/privacy/sealed';
import type { Actor } from '../core/command.ts';
import { deciderSpecification } from '../testing/decider-specification.ts';
import { outreachDecider } from './decider.ts';

const now = '2026-11-24T10:00:00.000Z';
const admin: Actor = { id: 'admin-1', role: 'admin' };
const content: SealedBox = { alg: 'A256GCM', subject: 'account-1', iv: 'iv', tag: 'tag', data: 'letter' };
const given = deciderSpecification(outreachDecider, 'email-1');
const byAdmin = { now, actor: admin };

describe('the outreach decider', () => {
  it('receives a contact message once, from a visitor too', () => {
    const send = { type: 'SendContactMessage', data: { content, senderId: null }, metadata: { now } } as const;
    given()
      .when(send)
      .then([{ type: 'ContactMessageReceived', data: { senderId: null, receivedAt: now } }]);
    given(ContactMessageReceived.create({ content, senderId: null, receivedAt: now }))
      .when(send)
      .refused('conflict', 'request.conflict');
  });

  it('records an e-mail before it is sent, then its one outcome', () => {
    const requested = EmailRequested.create({ content, senderId: 'admin-1', requestedAt: now });
    given()
      .when({ type: 'RequestEmail', data: { content, senderId: 'admin-1' }, metadata: byAdmin })
      .then([{ type: 'EmailRequested', data: { senderId: 'admin-1', requestedAt: now } }]);
    given(requested)
      .when({ type: 'RecordEmailSent', data: { transport: 'smtp', messageId: '<1@portal>' }, metadata: byAdmin })
      .then([{ type: 'EmailSent', data: { transport: 'smtp', sentAt: now } }]);
    given(requested)
      .when({ type: 'RecordEmailFailed', data: { reason: 'mailbox unavailable' }, metadata: byAdmin })
      .then([{ type: 'EmailFailed', data: { reason: 'mailbox unavailable', failedAt: now } }]);
  });

  it('refuses an outcome for an e-mail never requested, or settled already', () => {
    const sent = {
      type: 'RecordEmailSent',
      data: { transport: 'outbox', messageId: null },
      metadata: byAdmin,
    } as const;
    given().when(sent).refused('conflict', 'request.conflict');
    given(
      EmailRequested.create({ content, senderId: 'admin-1', requestedAt: now }),
      EmailFailed.create({ reason: 'refused', failedAt: now }),
    )
      .when(sent)
      .refused('conflict', 'request.conflict');
    given(
      EmailRequested.create({ content, senderId: 'admin-1', requestedAt: now }),
      EmailSent.create({ transport: 'outbox', messageId: null, sentAt: now }),
    )
      .when({ type: 'RequestEmail', data: { content, senderId: 'admin-1' }, metadata: byAdmin })
      .refused('conflict', 'request.conflict');
  });
});
