import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PersonalData, accountStream } from '@portal/contracts/accounts/account.events';
import { languageOf } from '@portal/platform/http/language';
import { requireRole } from '@portal/platform/http/session';
import {
  ContactMessageReceived,
  EmailFailed,
  EmailRequested,
  EmailSent,
  contactStream,
  emailStream,
  outreachIdOf,
} from '@portal/contracts/outreach/outreach.events';
import { open, seal } from '@portal/platform/privacy/personal-data';
import { translate } from '@portal/contracts/rules/messages';
import { ContactForm, EmailForm } from '@portal/contracts/rules/outreach';
import { accountDecider } from '../accounts/decider.ts';
import { loadState } from '../core/command-handler.ts';
import { idempotencyOf, metadataOf } from '../core/request-context.ts';
import type { Mailer } from './mailer.ts';
import { forbidden } from '@portal/platform/domain/errors';

const newId = () => randomBytes(12).toString('hex');

/**
 * Contact messages (anyone, signed in or not) and e-mails sent by staff. Both are events; an
 * e-mail is recorded before it is handed to the transport and its outcome after, so the outbox
 * shows every attempt, including the ones the SMTP server refused.
 */
export async function outreachRoutes(app: FastifyInstance, options: { mailer: Mailer }): Promise<void> {
  const { db, store } = app.commands;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/contact',
    {
      schema: {
        tags: ['messages'],
        summary: 'Send a message to the provider (the contact form); admins read it in the inbox',
        body: ContactForm,
      },
    },
    async (request, reply) => {
      const id = newId();
      // A member's message is sealed with their key (erasing them erases it); a visitor's with its own.
      const subject = request.session?.accountId ?? contactStream(id);
      const content = await seal(db, subject, request.body);
      const result = await store.append(
        contactStream(id),
        [
          ContactMessageReceived.create(
            { content, senderId: request.session?.accountId ?? null, receivedAt: new Date().toISOString() },
            metadataOf(request),
          ),
        ],
        { expectedRevision: 'no_stream', idempotency: idempotencyOf(request) },
      );
      return reply.code(201).send({
        success: true,
        message: translate('contact.sent', languageOf(request)),
        _id: id,
        position: result.position,
      });
    },
  );

  routes.post(
    '/api/emails',
    {
      preValidation: requireRole('admin', 'partner'),
      schema: {
        tags: ['messages'],
        summary:
          'Send an e-mail (admins and partners): through SMTP_URL when set, otherwise kept in the outbox; answers `transport`',
        body: EmailForm,
      },
    },
    async (request, reply) => {
      const { accountId } = request.session!;
      const language = languageOf(request);
      const idempotency = idempotencyOf(request);
      const earlier = idempotency && (await store.findIdempotent(idempotency.key, idempotency.fingerprint));
      if (earlier) {
        // A repeated request: answer how the first one went, and send nothing again.
        const outcome = (await store.readStream(earlier.streamId)).at(-1);
        const failed = outcome?.type === EmailFailed.type;
        return reply.code(failed ? 502 : 200).send({
          success: !failed,
          message: translate(failed ? 'email.failed' : 'email.sent', language),
          _id: outreachIdOf(earlier.streamId),
          position: outcome?.position ?? earlier.position,
        });
      }

      const account = await loadState(store, accountDecider, accountStream(accountId));
      const sender = 'personal' in account ? await open(db, account.personal, PersonalData) : null;
      if (!sender) throw forbidden('auth.forbidden');
      const id = newId();
      const stream = emailStream(id);
      const { to, subject, message } = request.body;
      const content = await seal(db, accountId, {
        to,
        subject,
        message,
        senderName: sender.fullName,
        senderEmail: sender.personalEmail,
      });
      const metadata = metadataOf(request);
      await store.append(
        stream,
        [EmailRequested.create({ content, senderId: accountId, requestedAt: new Date().toISOString() }, metadata)],
        { expectedRevision: 'no_stream', idempotency },
      );
      try {
        const delivery = await options.mailer.send({
          to,
          subject,
          text: message,
          replyTo: sender.personalEmail || undefined,
        });
        const result = await store.append(
          stream,
          [EmailSent.create({ ...delivery, sentAt: new Date().toISOString() }, metadata)],
          { expectedRevision: 0 },
        );
        return {
          success: true,
          message: translate(delivery.transport === 'smtp' ? 'email.sent' : 'email.kept', language),
          _id: id,
          transport: delivery.transport,
          position: result.position,
        };
      } catch (error) {
        // The server's words, without the addresses it names: they would sit in the log in the clear.
        const reason = withoutAddresses(error instanceof Error ? error.message : String(error)).slice(0, 500);
        request.log.warn({ email: id, reason }, 'the SMTP server did not take the e-mail');
        const result = await store.append(
          stream,
          [EmailFailed.create({ reason, failedAt: new Date().toISOString() }, metadata)],
          { expectedRevision: 0 },
        );
        return reply.code(502).send({
          success: false,
          title: translate('email.failedTitle', language),
          message: translate('email.failed', language),
          _id: id,
          position: result.position,
        });
      }
    },
  );
}

/** Text with every e-mail address in it replaced by `<address>`. */
export const withoutAddresses = (text: string) => text.replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, '<address>');
