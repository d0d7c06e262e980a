import { accountIdOf, decodeAccountEvent } from '@portal/contracts/accounts/account.events';
import {
  ContactContent,
  EmailContent,
  decodeOutreachEvent,
  outreachIdOf,
} from '@portal/contracts/outreach/outreach.events';
import { type StoredRowOf, createTable, insertRow, updateRows } from '@portal/platform/read-models/table';
import { contactMessages, emails, outreachTables } from '@portal/read-models/outreach';
import { type Projection, readsOf, someOf } from '../../projection.ts';

/**
 * The admins' inbox (contact messages) and outbox (every e-mail and how it went). What they say
 * is opened with the writer's key and kept sealed with the read models' key (the views
 * `contact_messages` and `emails` open it); erasing the writer blanks their rows here too.
 */
export const outreachProjection: Projection = {
  name: 'outreach',
  // Of the accounts' events, only an erasure: it blanks the writer's rows.
  reads: readsOf(someOf(decodeAccountEvent, 'PersonalDataErased'), decodeOutreachEvent),
  // 3: identifiers compared byte by byte (COLLATE "C", read-models/table.ts identifier).
  version: 3,
  async createTables(sql, schema) {
    for (const table of outreachTables) await createTable(sql, schema, table);
  },
  async apply(sql, schema, stored, personal) {
    const account = stored.type === 'PersonalDataErased' ? decodeAccountEvent(stored) : null;
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
        const row = {
          id,
          sender_id: event.data.senderId,
          name: await personal.seal(content?.name ?? null),
          email: await personal.seal(content?.email ?? null),
          subject: await personal.seal(content?.subject ?? null),
          message: await personal.seal(content?.message ?? null),
          received_at: event.data.receivedAt,
        } satisfies StoredRowOf<typeof contactMessages>;
        await sql.query(...insertRow(schema, contactMessages, row, 'ON CONFLICT (id) DO NOTHING'));
        return;
      }
      case 'EmailRequested': {
        const content = await personal(event.data.content, EmailContent);
        const row: Partial<StoredRowOf<typeof emails>> = {
          id,
          sender_id: event.data.senderId,
          sender_name: await personal.seal(content?.senderName ?? null),
          recipient: await personal.seal(content?.to ?? null),
          subject: await personal.seal(content?.subject ?? null),
          message: await personal.seal(content?.message ?? null),
          status: 'sending',
          requested_at: event.data.requestedAt,
        };
        await sql.query(...insertRow(schema, emails, row, 'ON CONFLICT (id) DO NOTHING'));
        return;
      }
      case 'EmailSent':
        await sql.query(
          ...updateRows(
            schema,
            emails,
            {
              status: event.data.transport === 'smtp' ? 'sent' : 'outbox',
              transport: event.data.transport,
              settled_at: event.data.sentAt,
            },
            { id },
          ),
        );
        return;
      case 'EmailFailed':
        await sql.query(
          ...updateRows(
            schema,
            emails,
            { status: 'failed', failure: event.data.reason, settled_at: event.data.failedAt },
            { id },
          ),
        );
        return;
      default: {
        const _exhaustive: never = event;
      }
    }
  },
};
