import type { ContactMessageView, EmailView } from '@portal/contracts/views/outreach';
import {
  column,
  defineTable,
  identifier,
  nullableIdentifier,
  type RowOf,
  sealed,
} from '@portal/platform/read-models/table';

/**
 * The admins' inbox (contact messages) and outbox (every e-mail and how it went). What they say
 * is kept sealed with the read models' key (the views `contact_messages` and `emails` open it);
 * erasing the writer blanks their rows. Written by the projector's outreach projection.
 */
export const contactMessages = defineTable(
  'contact_messages',
  {
    id: identifier('PRIMARY KEY'),
    sender_id: nullableIdentifier(),
    name: sealed.text(),
    email: sealed.text(),
    subject: sealed.text(),
    message: sealed.text(),
    received_at: column<Date>('timestamptz NOT NULL'),
  },
  {
    indexes: {
      contact_messages_received: 'received_at DESC, id',
      // Erasing a person blanks what they sent, found by sender (not by reading every message).
      contact_messages_sender: { on: 'sender_id', projectorReads: true },
    },
  },
);
export type ContactMessageRow = RowOf<typeof contactMessages>;

export const emails = defineTable(
  'emails',
  {
    id: identifier('PRIMARY KEY'),
    sender_id: identifier('NOT NULL'),
    sender_name: sealed.text(),
    recipient: sealed.text(),
    subject: sealed.text(),
    message: sealed.text(),
    /** 'sending' until the send's outcome is recorded (queries show a stale one as 'interrupted'). */
    status: identifier<Exclude<EmailView['status'], 'interrupted'>>('NOT NULL'),
    transport: nullableIdentifier(),
    failure: column<string | null>('text'),
    requested_at: column<Date>('timestamptz NOT NULL'),
    settled_at: column<Date | null>('timestamptz'),
  },
  {
    indexes: {
      emails_requested: 'requested_at DESC, id',
      emails_sender: { on: 'sender_id', projectorReads: true },
    },
  },
);
export type EmailRow = RowOf<typeof emails>;

export const outreachTables = [contactMessages, emails];

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export const toContactMessageView = (row: ContactMessageRow): ContactMessageView => ({
  _id: row.id,
  senderId: row.sender_id,
  name: row.name,
  email: row.email,
  subject: row.subject,
  message: row.message,
  receivedAt: iso(row.received_at)!,
});

/** An e-mail as the outbox shows it; `status` as the query worked it out (interrupted or not). */
export const toEmailView = (
  row: Omit<EmailRow, 'status' | 'transport'> & { status: EmailView['status'] },
): EmailView => ({
  _id: row.id,
  senderId: row.sender_id,
  senderName: row.sender_name,
  to: row.recipient,
  subject: row.subject,
  message: row.message,
  status: row.status,
  failure: row.failure,
  requestedAt: iso(row.requested_at)!,
  settledAt: iso(row.settled_at),
});
