import { Done, Refusal, ScanAnswer } from '@portal/contracts/answers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attendanceStream } from '@portal/contracts/attendance/attendance.events';
import { languageOf } from '@portal/platform/http/language';
import { ScanRequest, SelfCheckInRequest, VoidRequest } from '@portal/contracts/rules/attendance';
import { type MessageKey, translate } from '@portal/contracts/rules/messages';
import { handleCommand } from '../core/command-handler.ts';
import { scansRecorded } from '@portal/platform/http/metrics';
import { idempotencyOf, metadataOf, signedInMetadataOf } from '../core/request-context.ts';
import { attendanceDecider } from './decider.ts';
import { courseOfRound } from '../courses/round-index.ts';
import { type ScanOutcome, outcomeAt, scan } from './scan.ts';
import { selfCheckIn } from './self-check-in.ts';
import { notFound } from '@portal/platform/domain/errors';

const hex = (message: MessageKey) => z.string().regex(/^[0-9a-f]{24}$/, message);
const RoundParams = z.object({ roundId: hex('round.notFound') });

/** Counted when recorded, not when a replay (the same idempotency key) reads it back. */
const countScan = (outcome: ScanOutcome) =>
  scansRecorded.inc({ outcome: outcome.outcome, reason: outcome.outcome === 'accepted' ? '' : outcome.reason });

/**
 * Attendance (spec 001 section 7 and issue 5): the scan call, which records every attempt, and
 * the admin's void of a wrong scan.
 */
export async function attendanceRoutes(app: FastifyInstance): Promise<void> {
  const { db, store, attendance } = app.commands;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.put(
    '/api/admin/updateround/:roundId',
    {
      // Members too: a course's scan-only assistants (the course decides who may scan in it).
      config: { roles: ['admin', 'partner', 'member'] },
      schema: {
        tags: ['attendance'],
        summary:
          'Scan a member into a round: `userId` is a pass code, a member id or a username (typed). Every attempt is recorded.',
        params: RoundParams,
        body: ScanRequest,
        // A refused scan is an answer too (404: nobody matched, 409: why not); other refusals are the error handler's.
        response: { 200: ScanAnswer, 404: ScanAnswer.or(Refusal), 409: ScanAnswer.or(Refusal) },
      },
    },
    async (request, reply) => {
      const { roundId } = request.params;
      const scanned = await scan(
        { db, store, config: attendance },
        {
          ...signedInMetadataOf(request),
          input: { roundId, ...request.body },
          envelope: { idempotency: idempotencyOf(request), metadata: metadataOf(request) },
        },
      );
      const outcome = scanned.outcome ?? (await outcomeAt(store, scanned.result.streamId, scanned.result.position));
      if (scanned.outcome) countScan(outcome);
      const language = languageOf(request);
      const member = scanned.memberId ? { _id: scanned.memberId, fullName: scanned.name } : null;
      const position = scanned.result.position;
      if (outcome.outcome === 'accepted') {
        return { success: true, message: translate('attendance.accepted', language), member, position, ...outcome };
      }
      const status = outcome.reason === 'unknownMember' ? 404 : 409;
      return reply.code(status).send({
        success: false,
        message: translate(`attendance.${outcome.reason}`, language),
        member,
        position,
        ...outcome,
      });
    },
  );

  routes.post(
    '/api/rounds/:roundId/self-check-in',
    {
      config: { roles: ['member'] },
      schema: {
        tags: ['attendance'],
        summary:
          'Check yourself in to a round on its room code (members): recorded as a scan by yourself, refusals included',
        params: RoundParams,
        body: SelfCheckInRequest,
        response: { 200: ScanAnswer, 409: ScanAnswer.or(Refusal) },
      },
    },
    async (request, reply) => {
      const { roundId } = request.params;
      const checked = await selfCheckIn(
        { db, store, config: attendance },
        {
          ...signedInMetadataOf(request),
          input: { roundId, ...request.body },
          envelope: { idempotency: idempotencyOf(request), metadata: metadataOf(request) },
        },
      );
      const outcome = checked.outcome ?? (await outcomeAt(store, checked.result.streamId, checked.result.position));
      if (checked.outcome) countScan(outcome);
      const language = languageOf(request);
      const member = { _id: request.session!.accountId, fullName: checked.name };
      const position = checked.result.position;
      if (outcome.outcome === 'accepted') {
        return { success: true, message: translate('attendance.selfAccepted', language), member, position, ...outcome };
      }
      return reply.code(409).send({
        success: false,
        message: translate(`attendance.${outcome.reason}`, language),
        member,
        position,
        ...outcome,
      });
    },
  );

  routes.post(
    '/api/admin/rounds/:roundId/attendance/:memberId/void',
    {
      config: { roles: ['admin'] },
      schema: {
        response: { 200: Done },
        tags: ['attendance'],
        summary: 'Void a wrong scan with a reason (admins); the scan stays in the log and the counts drop it',
        params: RoundParams.extend({ memberId: hex('attendance.unknownMember') }),
        body: VoidRequest,
      },
    },
    async (request) => {
      const { roundId, memberId } = request.params;
      const courseId = await courseOfRound(db, roundId);
      if (!courseId) throw notFound('round.notFound');
      const result = await handleCommand(
        store,
        attendanceDecider,
        attendanceStream(roundId, memberId),
        {
          type: 'Void',
          data: { attempt: { courseId, roundId, memberId }, reason: request.body.reason },
          metadata: signedInMetadataOf(request),
        },
        { idempotency: idempotencyOf(request), metadata: metadataOf(request) },
      );
      return {
        success: true as const,
        message: translate('attendance.voided', languageOf(request)),
        position: result.position,
      };
    },
  );
}
