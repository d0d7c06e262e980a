import { accountIdOf, decodeAccountEvent } from '@portal/events/accounts/account.events';
import {
  ContactContent,
  EmailContent,
  decodeOutreachEvent,
  outreachIdOf,
} from '@portal/events/outreach/outreach.events';
import type { Projection } from '../../projection.ts';

/**
 * The admins' inbox (contact messages) and outbox (every e-mail and how it went). What they say
 * is opened with the writer's key; erasing the writer blanks their rows here too.
 */
export const outreachProjection: Projection = {
  name: 'outreach',
  version: 1,
  async createTables(sql, schema) {
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.contact_messages (
      id text PRIMARY KEY,
      sender_id text,
      name text NOT NULL,
      email text NOT NULL,
      subject text NOT NULL,
      message text NOT NULL,
      received_at timestamptz NOT NULL
    )`);
    await sql.query(
      `CREATE INDEX IF NOT EXISTS contact_messages_received ON ${schema}.contact_messages (received_at DESC, id)`,
    );
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.emails (
      id text PRIMARY KEY,
      sender_id text NOT NULL,
      sender_name text NOT NULL,
      recipient text NOT NULL,
      subject text NOT NULL,
      message text NOT NULL,
      status text NOT NULL,
      transport text,
      failure text,
      requested_at timestamptz NOT NULL,
      settled_at timestamptz
    )`);
    await sql.query(`CREATE INDEX IF NOT EXISTS emails_requested ON ${schema}.emails (requested_at DESC, id)`);
  },
  async apply(sql, schema, stored, personal) {
    const account = decodeAccountEvent(stored);
    if (account?.type === 'PersonalDataErased') {
      const id = accountIdOf(account.streamId);
      await sql.query(
        `UPDATE ${schema}.contact_messages SET name = '', email = '', subject = '', message = '' WHERE sender_id = $1`,
        [id],
      );
      await sql.query(
        `UPDATE ${schema}.emails SET sender_name = '', recipient = '', subject = '', message = '' WHERE sender_id = $1`,
        [id],
      );
      return;
    }
    const event = decodeOutreachEvent(stored);
    if (!event) return;
    const id = outreachIdOf(event.streamId);
    switch (event.type) {
      case 'ContactMessageReceived': {
        const content = (await personal(event.data.content, ContactContent)) ?? {
          name: '',
          email: '',
          subject: '',
          message: '',
        };
        await sql.query(
          `INSERT INTO ${schema}.contact_messages (id, sender_id, name, email, subject, message, received_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
          [
            id,
            event.data.senderId,
            content.name,
            content.email,
            content.subject,
            content.message,
            event.data.receivedAt,
          ],
        );
        return;
      }
      case 'EmailRequested': {
        const content = await personal(event.data.content, EmailContent);
        await sql.query(
          `INSERT INTO ${schema}.emails (id, sender_id, sender_name, recipient, subject, message, status, requested_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'sending', $7) ON CONFLICT (id) DO NOTHING`,
          [
            id,
            event.data.senderId,
            content?.senderName ?? '',
            content?.to ?? '',
            content?.subject ?? '',
            content?.message ?? '',
            event.data.requestedAt,
          ],
        );
        return;
      }
      case 'EmailSent':
        await sql.query(`UPDATE ${schema}.emails SET status = $2, transport = $3, settled_at = $4 WHERE id = $1`, [
          id,
          event.data.transport === 'smtp' ? 'sent' : 'outbox',
          event.data.transport,
          event.data.sentAt,
        ]);
        return;
      case 'EmailFailed':
        await sql.query(`UPDATE ${schema}.emails SET status = 'failed', failure = $2, settled_at = $3 WHERE id = $1`, [
          id,
          event.data.reason,
          event.data.failedAt,
        ]);
        return;
      default: {
        const _exhaustive: never = event;
      }
    }
  },
};
