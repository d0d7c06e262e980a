import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ContactMessages, Emails, OutreachQuery } from '@portal/contracts/views/outreach';
import { contactMessagesPage, emailsPage } from '../../core/outreach-tables.ts';
import { answer, paged } from '../../core/answers.ts';

/** The admins' inbox (contact messages) and outbox (e-mails sent from the portal). */
export async function outreachRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/admin/contact-messages',
    {
      config: { roles: ['admin'] },
      schema: {
        tags: ['messages'],
        summary: 'Contact messages, newest first (admins)',
        querystring: OutreachQuery,
        response: { 200: ContactMessages },
      },
    },
    async (request) => {
      const found = await contactMessagesPage(app.queries.db, request.query);
      return answer(request, 'outreach.loaded', paged(found, request.query));
    },
  );
  routes.get(
    '/api/admin/emails',
    {
      config: { roles: ['admin'] },
      schema: {
        tags: ['messages'],
        summary: 'Every e-mail sent from the portal and how it went: sent, kept in the outbox, or failed (admins)',
        querystring: OutreachQuery,
        response: { 200: Emails },
      },
    },
    async (request) => {
      const found = await emailsPage(app.queries.db, request.query);
      return answer(request, 'outreach.loaded', paged(found, request.query));
    },
  );
}
