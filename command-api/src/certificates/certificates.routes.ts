import { Done } from '@portal/contracts/answers';
import {
  CertificateRevoked,
  CompletionRuleSet,
  certificateStream,
  completionStream,
} from '@portal/contracts/certificates/certificate.events';
import { CompletionRuleRequest, RevokeRequest } from '@portal/contracts/rules/certificate';
import { translate } from '@portal/contracts/rules/messages';
import { conflict, notFound } from '@portal/platform/domain/errors';
import { languageOf } from '@portal/platform/http/language';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idempotencyOf, metadataOf, signedInMetadataOf } from '../core/request-context.ts';
import type { Mailer } from '../outreach/mailer.ts';
import { certifyCourse } from './certify.ts';
import { certificateFold, courseToCertify } from './completion.ts';

const hex24 = (message: string) => z.string().regex(/^[0-9a-f]{24}$/, message);
const CourseId = z.object({ id: hex24('course.notFound') });
const MemberCertificate = CourseId.extend({ memberId: hex24('certificate.notFound') });

/**
 * Certificates of completion (issue 23): a course's completion rule (its creator or an admin),
 * deciding its certificates now that its last round has ended (the sweep does it on its own
 * too), and revoking one with a reason (admins).
 */
export async function certificateRoutes(app: FastifyInstance, options: { mailer: Mailer }): Promise<void> {
  const { store, db } = app.commands;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.put(
    '/api/admin/courses/:id/completion-rule',
    {
      config: { roles: ['admin', 'partner'] },
      schema: {
        tags: ['certificates'],
        summary: 'The share of held rounds (percent) a member must attend for a certificate; 80 unless set',
        params: CourseId,
        body: CompletionRuleRequest,
        response: { 200: Done },
      },
    },
    async (request) => {
      const { actor, now } = signedInMetadataOf(request);
      await courseToCertify(store, request.params.id, actor);
      const event = CompletionRuleSet.create({
        courseId: request.params.id,
        percent: request.body.percent,
        setBy: actor.id,
        setAt: now,
      });
      const result = await store.append(
        completionStream(request.params.id),
        [{ ...event, metadata: metadataOf(request) }],
        { expectedRevision: 'any', idempotency: idempotencyOf(request) },
      );
      return {
        success: true as const,
        message: translate('certificate.ruleSet', languageOf(request)),
        position: result.position,
      };
    },
  );

  routes.post(
    '/api/admin/courses/:id/certificates',
    {
      config: { roles: ['admin', 'partner'] },
      schema: {
        tags: ['certificates'],
        summary: 'Decide the course’s certificates now (after its last round); each member is issued one at most',
        params: CourseId,
        response: { 200: Done.extend({ issued: z.number() }) },
      },
    },
    async (request) => {
      const { actor } = signedInMetadataOf(request);
      const { issued, position, mailed } = await certifyCourse(
        { db, store, mailer: options.mailer },
        request.params.id,
        {
          now: new Date(),
          actor,
          origin: `${request.protocol}://${request.host}`,
          eventMetadata: metadataOf(request),
        },
      );
      mailed.catch((error: unknown) => request.log.error({ err: error }, 'certificate e-mails'));
      return {
        success: true as const,
        message: translate('certificate.issued', languageOf(request)),
        position,
        issued,
      };
    },
  );

  routes.post(
    '/api/admin/courses/:id/certificates/:memberId/revoke',
    {
      config: { roles: ['admin'] },
      schema: {
        tags: ['certificates'],
        summary: 'Revoke a member’s certificate of the course, with the reason its public page shows (admins)',
        params: MemberCertificate,
        body: RevokeRequest,
        response: { 200: Done },
      },
    },
    async (request) => {
      const { actor, now } = signedInMetadataOf(request);
      const { id, memberId } = request.params;
      const result = await store.appendFolded(
        certificateStream(id, memberId),
        certificateFold,
        (state) => {
          if (state.status === 'none') throw notFound('certificate.notFound');
          if (state.status === 'revoked') throw conflict('certificate.alreadyRevoked');
          const event = CertificateRevoked.create({
            certificateId: state.certificateId,
            reason: request.body.reason,
            revokedBy: actor.id,
            revokedAt: now,
          });
          return [{ ...event, metadata: metadataOf(request) }];
        },
        { idempotency: idempotencyOf(request) },
      );
      return {
        success: true as const,
        message: translate('certificate.revoked', languageOf(request)),
        position: result.position,
      };
    },
  );
}
