import { accountIdOf, decodeAccountEvent } from '@portal/contracts/accounts/account.events';
import {
  ContactContent,
  EmailContent,
  decodeOutreachEvent,
  outreachIdOf,
} from '@portal/contracts/outreach/outreach.events';
import { createSealedView } from '@portal/platform/read-models/sealed-columns';
import type { Projection } from '../../projection.ts';

/**
 * The admins' inbox (contact messages) and outbox (every e-mail and how it went). What they say
 * is opened with the writer's key and kept sealed with the read models' key (the views
 * `contact_messages` and `emails` open it); erasing the writer blanks their rows here too.
 */
export const outreachProjection: Projection = {
  name: 'outreach',
  version: 2,
  async createTables(sql, schema) {
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.contact_messages_sealed (
      id text PRIMARY KEY,
      sender_id text,
      name bytea,
      email bytea,
      subject bytea,
      message bytea,
      received_at timestamptz NOT NULL
    )`);
    await sql.query(
      `CREATE INDEX IF NOT EXISTS contact_messages_received ON ${schema}.contact_messages_sealed (received_at DESC, id)`,
    );
    await createSealedView(sql, schema, {
      name: 'contact_messages',
      plain: ['id', 'sender_id', 'received_at'],
      opened: { name: 'text', email: 'text', subject: 'text', message: 'text' },
    });
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.emails_sealed (
      id text PRIMARY KEY,
      sender_id text NOT NULL,
      sender_name bytea,
      recipient bytea,
      subject bytea,
      message bytea,
      status text NOT NULL,
      transport text,
      failure text,
      requested_at timestamptz NOT NULL,
      settled_at timestamptz
    )`);
    await sql.query(`CREATE INDEX IF NOT EXISTS emails_requested ON ${schema}.emails_sealed (requested_at DESC, id)`);
    await createSealedView(sql, schema, {
      name: 'emails',
      plain: ['id', 'sender_id', 'status', 'transport', 'failure', 'requested_at', 'settled_at'],
      opened: { sender_name: 'text', recipient: 'text', subject: 'text', message: 'text' },
    });
  },
  async apply(sql, schema, stored, personal) {
    const account = decodeAccountEvent(stored);
    if (account?.type === 'PersonalDataErased') {
      const id = accountIdOf(account.streamId);
      await sql.query(
        `UPDATE ${schema}.contact_messages_sealed SET name = NULL, email = NULL, subject = NULL, message = NULL
          WHERE sender_id = $1`,
        [id],
      );
      await sql.query(
        `UPDATE ${schema}.emails_sealed SET sender_name = NULL, recipient = NULL, subject = NULL, message = NULL
          WHERE sender_id = $1`,
        [id],
      );
      return;
    }
    const event = decodeOutreachEvent(stored);
    if (!event) return;
    const id = outreachIdOf(event.streamId);
    switch (event.type) {
      case 'ContactMessageReceived': {
        const content = await personal(event.data.content, ContactContent);
        await sql.query(
          `INSERT INTO ${schema}.contact_messages_sealed (id, sender_id, name, email, subject, message, received_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
          [
            id,
            event.data.senderId,
            await personal.seal(content?.name ?? null),
            await personal.seal(content?.email ?? null),
            await personal.seal(content?.subject ?? null),
            await personal.seal(content?.message ?? null),
            event.data.receivedAt,
          ],
        );
        return;
      }
      case 'EmailRequested': {
        const content = await personal(event.data.content, EmailContent);
        await sql.query(
          `INSERT INTO ${schema}.emails_sealed (id, sender_id, sender_name, recipient, subject, message, status, requested_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'sending', $7) ON CONFLICT (id) DO NOTHING`,
          [
            id,
            event.data.senderId,
            await personal.seal(content?.senderName ?? null),
            await personal.seal(content?.to ?? null),
            await personal.seal(content?.subject ?? null),
            await personal.seal(content?.message ?? null),
            event.data.requestedAt,
          ],
        );
        return;
      }
      case 'EmailSent':
        await sql.query(
          `UPDATE ${schema}.emails_sealed SET status = $2, transport = $3, settled_at = $4 WHERE id = $1`,
          [id, event.data.transport === 'smtp' ? 'sent' : 'outbox', event.data.transport, event.data.sentAt],
        );
        return;
      case 'EmailFailed':
        await sql.query(
          `UPDATE ${schema}.emails_sealed SET status = 'failed', failure = $2, settled_at = $3 WHERE id = $1`,
          [id, event.data.reason, event.data.failedAt],
        );
        return;
      default: {
        const _exhaustive: never = event;
      }
    }
  },
};
