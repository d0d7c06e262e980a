import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ProfileAnswer } from '@portal/contracts/views/account';
import { findAccount } from '../../core/accounts-table.ts';
import { answer } from '../../core/answers.ts';
import { forbidden, notFound } from '@portal/platform/domain/errors';

export async function profileRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/members/profile/:id',
    {
      schema: {
        tags: ['accounts'],
        summary: "A member's profile: one's own, or anyone's for an admin",
        params: z.object({ id: z.string().max(64) }),
        response: { 200: ProfileAnswer },
      },
    },
    async (request) => {
      const session = request.session!;
      if (session.accountId !== request.params.id && session.role !== 'admin') {
        throw forbidden('auth.ownerOrAdmin');
      }
      const member = await findAccount(app.queries.db, request.params.id);
      if (!member) throw notFound('profile.notFound', { member: null });
      return answer(request, 'profile.loaded', { member });
    },
  );
}
