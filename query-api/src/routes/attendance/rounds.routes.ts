import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { passKeysFor } from '@portal/platform/attendance/pass-keys';
import { PassAnswer, RoundDetails } from '@portal/contracts/views/round';
import { findRound } from '../../core/rounds-table.ts';
import { mayScanIn } from '../../core/assistants-table.ts';
import { forbidden, notFound } from '@portal/platform/domain/errors';
import { answer } from '../../core/answers.ts';

/** The round page's data (spec 001 sections 2.4 and 7) and the member's attendance pass. */
export async function roundQueryRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/admin/rounds/:roundId',
    {
      // Members too: a course's scan-only assistants.
      config: { roles: ['admin', 'partner', 'member'] },
      schema: {
        tags: ['attendance'],
        summary:
          'One round: the scanned list, attended, absent, and the roster (admins, the course’s creator and its assistants)',
        params: z.object({ roundId: z.string() }),
        response: { 200: RoundDetails },
      },
    },
    async (request) => {
      const now = new Date();
      const found = await findRound(app.queries.db, request.params.roundId, now, app.queries.scanMargins);
      if (!found) throw notFound('round.notFound');
      const course = { id: found.round.courseId, creator: found.creator };
      if (!(await mayScanIn(app.queries.db, course, request.session!))) throw forbidden('course.notScanner');
      return answer(request, 'courses.loaded', {
        round: found.round,
        serverTime: now.toISOString(),
        passKey: passKeysFor(app.queries.passSecret).publicKey,
      });
    },
  );

  routes.get(
    '/api/clock',
    {
      config: { roles: ['admin', 'partner', 'member'] },
      schema: {
        tags: ['attendance'],
        summary:
          'The server’s time, never cached: scanners measure their clock’s offset from it at each sync, to judge passes offline',
        response: { 200: z.object({ serverTime: z.string() }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { serverTime: new Date().toISOString() };
    },
  );

  routes.get(
    '/api/members/me/pass',
    {
      config: { roles: ['member'] },
      schema: {
        tags: ['attendance'],
        summary: 'The signed-in member’s attendance pass: a code that changes every 30 seconds',
        response: { 200: PassAnswer },
      },
    },
    async (request, reply) => {
      const memberId = request.session!.accountId;
      reply.header('cache-control', 'no-store');
      return { success: true as const, memberId, ...passKeysFor(app.queries.passSecret).issue(memberId) };
    },
  );
}
