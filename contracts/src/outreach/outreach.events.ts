import { z } from 'zod';
import { createDecoder, defineEvent } from '../catalogue.ts';
import { Sealed } from '../privacy/sealed.ts';

/**
 * Messages people send through the portal: contact messages to the provider (`contact-<id>`) and
 * e-mails staff send (`email-<id>`). What they say is personal data, sealed with the key of the
 * account that wrote it (or, for a visitor, a key of the message's own), so erasing the writer
 * makes it unreadable.
 */
export const contactStream = (id: string) => `contact-${id}`;
export const emailStream = (id: string) => `email-${id}`;
export const outreachIdOf = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

const at = z.iso.datetime({ offset: true });

/** What a contact message says (sealed in the event). */
export const ContactContent = z.object({
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
});
export type ContactContent = z.infer<typeof ContactContent>;

/** What an e-mail says, and who sent it (sealed in the event). */
export const EmailContent = z.object({
  to: z.string(),
  subject: z.string(),
  message: z.string(),
  senderName: z.string(),
  senderEmail: z.string(),
});
export type EmailContent = z.infer<typeof EmailContent>;

export const ContactMessageReceived = defineEvent(
  'ContactMessageReceived',
  z.object({ content: Sealed, senderId: z.string().nullable(), receivedAt: at }),
);

/** Written before the e-mail is handed to the transport, so an attempt is never lost. */
export const EmailRequested = defineEvent(
  'EmailRequested',
  z.object({ content: Sealed, senderId: z.string(), requestedAt: at }),
);
/** `smtp`: accepted by the SMTP server; `outbox`: no SMTP_URL, kept for admins to read. */
export const EmailSent = defineEvent(
  'EmailSent',
  z.object({ transport: z.enum(['smtp', 'outbox']), messageId: z.string().nullable(), sentAt: at }),
);
export const EmailFailed = defineEvent('EmailFailed', z.object({ reason: z.string(), failedAt: at }));

export const outreachEvents = [ContactMessageReceived, EmailRequested, EmailSent, EmailFailed] as const;
export const decodeOutreachEvent = createDecoder(outreachEvents);
export type OutreachEvent = NonNullable<ReturnType<typeof decodeOutreachEvent>>;
