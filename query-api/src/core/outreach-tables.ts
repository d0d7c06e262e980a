import type { Sql } from '@portal/platform/store/sql';
import { type ContactMessageRow, toContactMessageView, toEmailView } from '@portal/read-models/outreach';

interface Page {
  page: number;
  pageSize: number;
}

export async function contactMessagesPage(sql: Sql, { page, pageSize }: Page) {
  const [{ total }] = (await sql.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM rm.contact_messages`,
  )) as [{ total: number }];
  const rows = await sql.query<ContactMessageRow>(
    `SELECT * FROM rm.contact_messages ORDER BY received_at DESC, id DESC LIMIT $1 OFFSET $2`,
    [pageSize, (page - 1) * pageSize],
  );
  return {
    total,
    contactMessages: rows.map(toContactMessageView),
  };
}

/**
 * A send lasts well under a minute (the mailer gives up after 10 s to connect and 20 s of silence);
 * one still without an outcome after this long was cut off by a stop between its two events.
 */
export const INTERRUPTED_AFTER_MINUTES = 5;

export async function emailsPage(sql: Sql, { page, pageSize }: Page) {
  const [{ total }] = (await sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM rm.emails`)) as [
    { total: number },
  ];
  const rows = await sql.query<Parameters<typeof toEmailView>[0]>(
    `SELECT id, sender_id, sender_name, recipient, subject, message, failure, requested_at, settled_at,
            CASE WHEN status = 'sending' AND requested_at < now() - interval '${INTERRUPTED_AFTER_MINUTES} minutes'
                 THEN 'interrupted' ELSE status END AS status
       FROM rm.emails ORDER BY requested_at DESC, id DESC LIMIT $1 OFFSET $2`,
    [pageSize, (page - 1) * pageSize],
  );
  return {
    total,
    emails: rows.map(toEmailView),
  };
}
