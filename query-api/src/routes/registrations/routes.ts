import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireRole } from '@portal/events/http/session';
import { RegistrationList } from '../../contracts/account.ts';
import { listRegistrations } from '../../core/accounts-table.ts';

export async function registrationRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/registration',
    {
      preValidation: requireRole('admin'),
      schema: {
        tags: ['registrations'],
        summary: 'Every member and partner registration, newest first (admins only)',
        response: { 200: RegistrationList },
      },
    },
    async () => ({ members: await listRegistrations(app.queries.db) }),
  );
}
