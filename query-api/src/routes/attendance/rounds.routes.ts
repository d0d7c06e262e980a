import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { passKeysFor } from '@portal/platform/attendance/pass-keys';
import { ROOM_CODE_MS, roomCodeAt } from '@portal/platform/attendance/room-code';
import { PassAnswer, RoomCodeAnswer, RoundDetails } from '@portal/contracts/views/round';
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
    '/api/admin/rounds/:roundId/room-code',
    {
      config: { roles: ['admin', 'partner', 'member'] },
      schema: {
        tags: ['attendance'],
        summary:
          'The round’s rotating room code for members to check themselves in (whoever may scan in it): changes every 15 s',
        params: z.object({ roundId: z.string() }),
        response: {
          200: RoomCodeAnswer,
        },
      },
    },
    async (request, reply) => {
      const now = new Date();
      const found = await findRound(app.queries.db, request.params.roundId, now, app.queries.scanMargins);
      if (!found) throw notFound('round.notFound');
      const course = { id: found.round.courseId, creator: found.creator };
      if (!(await mayScanIn(app.queries.db, course, request.session!))) throw forbidden('course.notScanner');
      const { code, expiresAt } = roomCodeAt(app.queries.passSecret, request.params.roundId, now.getTime());
      const [rules] = await app.queries.db.query<{ located: boolean }>(
        `SELECT coalesce(jsonb_typeof(self_check_in->'location') = 'object', false) AS located
           FROM rm.courses WHERE id = $1`,
        [course.id],
      );
      reply.header('cache-control', 'no-store');
      return {
        needsLocation: Boolean(rules?.located),
        code,
        expiresAt: new Date(expiresAt).toISOString(),
        rotatesEveryMs: ROOM_CODE_MS,
        serverTime: now.toISOString(),
      };
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
