import { emailStream } from '@portal/contracts/outreach/outreach.events';
import type { EventMetadata } from '@portal/contracts/envelope';
import { seal } from '@portal/platform/privacy/personal-data';
import type { EventStore } from '@portal/platform/store/port';
import type { Sql } from '@portal/platform/store/sql';
import { handleCommand } from '../core/command-handler.ts';
import type { SignedInMetadata } from '../core/command.ts';
import { newId } from '../core/ids.ts';
import { outreachDecider } from './decider.ts';
import { withoutAddresses } from './emails.routes.ts';
import type { Letter, Mailer } from './mailer.ts';

/**
 * E-mails one person (through SMTP, or kept in the outbox), recorded as every e-mail is: requested
 * before it is handed to the transport, then sent or failed. What it says is sealed with the
 * person's own key, so erasing them erases the letter too (attachments are sent, not kept).
 */
export async function sendSealedLetter(
  deps: { db: Sql; store: EventStore; mailer: Mailer },
  options: { accountId: string; letter: Letter; metadata: SignedInMetadata; eventMetadata: EventMetadata },
): Promise<{ transport: 'smtp' | 'outbox'; position: number }> {
  const { letter, metadata } = options;
  const stream = emailStream(newId());
  const record = (command: Parameters<typeof outreachDecider.decide>[0]) =>
    handleCommand(deps.store, outreachDecider, stream, command, { metadata: options.eventMetadata });
  const attached = (letter.attachments ?? []).map((file) => `[${file.filename}]`).join(' ');
  const content = await seal(deps.db, options.accountId, {
    to: letter.to,
    subject: letter.subject,
    message: attached ? `${letter.text}\n\n${attached}` : letter.text,
    senderName: 'Course portal',
    senderEmail: '',
  });
  await record({ type: 'RequestEmail', data: { content, senderId: metadata.actor.id }, metadata });
  try {
    const delivery = await deps.mailer.send(letter);
    const result = await record({ type: 'RecordEmailSent', data: delivery, metadata });
    return { transport: delivery.transport, position: result.position };
  } catch (error) {
    const reason = withoutAddresses(error instanceof Error ? error.message : String(error)).slice(0, 500);
    await record({ type: 'RecordEmailFailed', data: { reason }, metadata });
    throw error;
  }
}
