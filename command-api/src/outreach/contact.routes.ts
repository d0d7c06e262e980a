import { MessageSent } from '@portal/contracts/answers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contactStream } from '@portal/contracts/outreach/outreach.events';
import { translate } from '@portal/contracts/rules/messages';
import { ContactForm } from '@portal/contracts/rules/outreach';
import { languageOf } from '@portal/platform/http/language';
import { seal } from '@portal/platform/privacy/personal-data';
import { newId } from '../core/ids.ts';
import { handleCommand } from '../core/command-handler.ts';
import { commandMetadataOf, idempotencyOf, metadataOf } from '../core/request-context.ts';
import { outreachDecider } from './decider.ts';

/** Contact messages (anyone, signed in or not): an event, kept for the admins' inbox. */
export async function contactRoutes(app: FastifyInstance): Promise<void> {
  const { db, store } = app.commands;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/contact',
    {
      schema: {
        tags: ['messages'],
        summary: 'Send a message to the provider (the contact form); admins read it in the inbox',
        body: ContactForm,
        response: { 201: MessageSent },
      },
    },
    async (request, reply) => {
      const id = newId();
      // A member's message is sealed with their key (erasing them erases it); a visitor's with its own.
      const subject = request.session?.accountId ?? contactStream(id);
      const content = await seal(db, subject, request.body);
      const result = await handleCommand(
        store,
        outreachDecider,
        contactStream(id),
        {
          type: 'SendContactMessage',
          data: { content, senderId: request.session?.accountId ?? null },
          metadata: commandMetadataOf(request),
        },
        { idempotency: idempotencyOf(request), metadata: metadataOf(request) },
      );
      return reply.code(201).send({
        success: true as const,
        message: translate('contact.sent', languageOf(request)),
        _id: id,
        position: result.position,
      });
    },
  );
}
