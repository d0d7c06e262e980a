import { EmailRefused, MessageSent } from '@portal/contracts/answers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PersonalData, accountStream } from '@portal/contracts/accounts/account.events';
import { languageOf } from '@portal/platform/http/language';
import {
  EmailFailed,
  decodeOutreachEvent,
  emailStream,
  outreachIdOf,
} from '@portal/contracts/outreach/outreach.events';
import { open, seal } from '@portal/platform/privacy/personal-data';
import { translate } from '@portal/contracts/rules/messages';
import { EmailForm } from '@portal/contracts/rules/outreach';
import { accountDecider } from '../accounts/decider.ts';
import { handleCommand, loadState } from '../core/command-handler.ts';
import { newId } from '../core/ids.ts';
import { idempotencyOf, metadataOf, signedInMetadataOf } from '../core/request-context.ts';
import type { OutreachCommand } from './decide.ts';
import { outreachDecider } from './decider.ts';
import type { Mailer } from './mailer.ts';
import { forbidden } from '@portal/platform/domain/errors';

/**
 * E-mails sent by staff: an event is recorded before the e-mail is handed to the transport and its
 * outcome after, so the outbox shows every attempt, including the ones the SMTP server refused.
 */
export async function emailRoutes(app: FastifyInstance, options: { mailer: Mailer }): Promise<void> {
  const { db, store } = app.commands;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/emails',
    {
      config: { roles: ['admin', 'partner'] },
      schema: {
        tags: ['messages'],
        summary:
          'Send an e-mail (admins and partners): through SMTP_URL when set, otherwise kept in the outbox; answers `transport`',
        body: EmailForm,
        response: { 200: MessageSent, 502: EmailRefused },
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
        const answer = { _id: outreachIdOf(earlier.streamId), position: outcome?.position ?? earlier.position };
        if (!failed) {
          const sent = outcome && decodeOutreachEvent(outcome);
          const transport = sent?.type === 'EmailSent' ? sent.data.transport : 'smtp';
          const message = transport === 'smtp' ? 'email.sent' : 'email.kept';
          return { ...answer, success: true as const, message: translate(message, language), transport };
        }
        return reply.code(502).send({
          ...answer,
          success: false as const,
          title: translate('email.failedTitle', language),
          message: translate('email.failed', language),
        });
      }

      const account = await loadState(store, accountDecider, accountStream(accountId));
      const sender = 'personal' in account ? await open(db, account.personal, PersonalData) : null;
      if (!sender) throw forbidden('profile.notFound'); // an account whose data is gone cannot sign a letter
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
      const record = (command: OutreachCommand, withKey = false) =>
        handleCommand(store, outreachDecider, stream, command, {
          metadata: metadataOf(request),
          ...(withKey && idempotency ? { idempotency } : {}),
        });
      const signedIn = signedInMetadataOf(request);
      await record({ type: 'RequestEmail', data: { content, senderId: accountId }, metadata: signedIn }, true);
      try {
        const delivery = await options.mailer.send({
          to,
          subject,
          text: message,
          replyTo: sender.personalEmail || undefined,
        });
        const result = await record({ type: 'RecordEmailSent', data: delivery, metadata: signedInMetadataOf(request) });
        return {
          success: true as const,
          message: translate(delivery.transport === 'smtp' ? 'email.sent' : 'email.kept', language),
          _id: id,
          transport: delivery.transport,
          position: result.position,
        };
      } catch (error) {
        // The server's words, without the addresses it names: they would sit in the log in the clear.
        const reason = withoutAddresses(error instanceof Error ? error.message : String(error)).slice(0, 500);
        request.log.warn({ email: id, reason }, 'the SMTP server did not take the e-mail');
        const result = await record({
          type: 'RecordEmailFailed',
          data: { reason },
          metadata: signedInMetadataOf(request),
        });
        return reply.code(502).send({
          success: false as const,
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
