import { z } from 'zod';
import { pageFields, pageParam, pageSizeParam } from './query-params.ts';

export const OutreachQuery = z.object({
  page: pageParam.default(1),
  pageSize: pageSizeParam(20),
});

const paged = { ...pageFields, message: z.string() };

/** The admins' inbox: contact messages, newest first. */
export const ContactMessages = z.object({
  success: z.literal(true),
  contactMessages: z.array(
    z.object({
      _id: z.string(),
      senderId: z.string().nullable(),
      name: z.string(),
      email: z.string(),
      subject: z.string(),
      message: z.string(),
      receivedAt: z.string(),
    }),
  ),
  ...paged,
});

/**
 * The outbox: every e-mail and how it went, newest first. `interrupted`: sending began but no
 * outcome was recorded within INTERRUPTED_AFTER_MINUTES (the process stopped in between), so
 * nobody knows whether it was delivered; it is not sent again, which could send it twice.
 */
export const Emails = z.object({
  success: z.literal(true),
  emails: z.array(
    z.object({
      _id: z.string(),
      senderId: z.string(),
      senderName: z.string(),
      to: z.string(),
      subject: z.string(),
      message: z.string(),
      status: z.enum(['sending', 'sent', 'outbox', 'failed', 'interrupted']),
      failure: z.string().nullable(),
      requestedAt: z.string(),
      settledAt: z.string().nullable(),
    }),
  ),
  ...paged,
});
export type ContactMessageView = z.infer<typeof ContactMessages>['contactMessages'][number];
export type EmailView = z.infer<typeof Emails>['emails'][number];
