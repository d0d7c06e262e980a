import { z } from 'zod';
import type { MessageKey } from './messages.ts';
import { multiLineText, singleLineText } from './text.ts';

/** The spec's "simple {email} pattern": something, an @, something, a dot, something; no spaces. */
const SIMPLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const key = (messageKey: MessageKey) => messageKey;
const text = (required: MessageKey) => singleLineText(key(required)).trim();
const lines = (required: MessageKey) => multiLineText(key(required)).trim();

/** The contact form (spec 001 section 5): name, e-mail, an optional subject, a message of 10 or more. */
export const ContactForm = z.object({
  name: text('contact.nameRequired').min(1, key('contact.nameRequired')).max(100, key('contact.nameTooLong')),
  email: text('contact.emailRequired')
    .min(1, key('contact.emailRequired'))
    .max(254, key('contact.emailInvalid'))
    .regex(SIMPLE_EMAIL, key('contact.emailInvalid')),
  subject: singleLineText().trim().max(100, key('contact.subjectTooLong')).default(''),
  message: lines('contact.messageRequired')
    .min(1, key('contact.messageRequired'))
    .min(10, key('contact.messageTooShort'))
    .max(5000, key('contact.messageTooLong')),
});
export type ContactForm = z.input<typeof ContactForm>;

/** The send e-mail form (spec 001 section 5): all three fields required, the recipient an address. */
export const EmailForm = z.object({
  to: text('email.toRequired')
    .min(1, key('email.toRequired'))
    .max(254, key('email.toInvalid'))
    .regex(SIMPLE_EMAIL, key('email.toInvalid')),
  subject: text('email.subjectRequired').min(1, key('email.subjectRequired')).max(200, key('email.subjectTooLong')),
  message: lines('email.messageRequired').min(1, key('email.messageRequired')).max(10_000, key('email.messageTooLong')),
});
export type EmailForm = z.input<typeof EmailForm>;
