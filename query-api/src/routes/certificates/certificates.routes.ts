import { CertificateId, DEFAULT_COMPLETION_PERCENT } from '@portal/contracts/certificates/certificate.events';
import { CertificateVerification, CourseCertificates, MyCertificates } from '@portal/contracts/views/certificate';
import { certificatePdf } from '@portal/platform/certificates/certificate-pdf';
import { conflict, forbidden, notFound } from '@portal/platform/domain/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  certificateById,
  certificatesOfCourse,
  certificatesOfMember,
  toCertificateView,
  toVerification,
} from '../../core/certificates.ts';

const CertificateParams = z.object({ certificateId: z.string().max(40) });
const CourseParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'course.notFound') });
const unknown = () => notFound('certificate.notFound');

/** Certificates (issue 23) for the signed-in: a member's own, a course's for its staff, and the PDF. */
export async function certificateRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/certificates',
    {
      schema: {
        tags: ['certificates'],
        summary: 'Your certificates of completion, newest first',
        response: { 200: MyCertificates },
      },
    },
    async (request) => {
      const rows = await certificatesOfMember(app.queries.db, request.session!.accountId);
      return { success: true as const, certificates: rows.map(toCertificateView) };
    },
  );

  routes.get(
    '/api/admin/courses/:id/certificates',
    {
      config: { roles: ['admin', 'partner'] },
      schema: {
        tags: ['certificates'],
        summary: 'A course’s completion rule and certificates (its creator and admins)',
        params: CourseParams,
        response: { 200: CourseCertificates },
      },
    },
    async (request) => {
      const { db } = app.queries;
      const session = request.session!;
      const [course] = await db.query<{
        creator: string;
        percent: number | null;
        checked_at: Date | null;
        last_end: Date | null;
      }>(
        `SELECT c.creator, cc.percent, cc.checked_at,
                (SELECT max(r.ends_at) FROM rm.rounds r WHERE r.course_id = c.id) AS last_end
           FROM rm.courses c LEFT JOIN rm.course_completion cc ON cc.course_id = c.id
          WHERE c.id = $1`,
        [request.params.id],
      );
      if (!course) throw notFound('course.notFound');
      if (session.role !== 'admin' && session.accountId !== course.creator) throw forbidden('course.notCreator');
      const rows = await certificatesOfCourse(db, request.params.id);
      return {
        success: true as const,
        percent: course.percent ?? DEFAULT_COMPLETION_PERCENT,
        lastRoundEndsAt: course.last_end && new Date(course.last_end).toISOString(),
        ended: course.last_end !== null && new Date(course.last_end).getTime() <= Date.now(),
        checkedAt: course.checked_at && new Date(course.checked_at).toISOString(),
        certificates: rows.map(toCertificateView),
      };
    },
  );

  routes.get(
    '/api/certificates/:certificateId/pdf',
    {
      schema: {
        tags: ['certificates'],
        summary: 'A certificate as a PDF in Thai and English (its holder, the course’s creator, admins)',
        params: CertificateParams,
      },
    },
    async (request, reply) => {
      const session = request.session!;
      const row = await certificateById(app.queries.db, request.params.certificateId);
      const allowed = row && [row.member_id, row.issuer_id].includes(session.accountId);
      if (!row || (!allowed && session.role !== 'admin')) throw unknown();
      if (row.revoked_at) throw conflict('certificate.alreadyRevoked');
      if (row.member_erased) throw unknown();
      const view = toCertificateView(row);
      const pdf = await certificatePdf({
        ...view,
        memberName: view.memberName ?? '',
        issuer: row.issuer_name ?? '',
        verifyUrl: `${request.protocol}://${request.host}/verify/${view.certificateId}`,
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="certificate-${view.certificateId}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
}

/**
 * GET /api/certificates/{id}/verification, public: whoever holds the paper (or scans its QR code)
 * learns whether it is valid, revoked (and why), or was issued to someone since erased, who is
 * then not named. The number is 128 random bits: it cannot be guessed to list people.
 */
export async function certificateVerificationRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/certificates/:certificateId/verification',
    {
      schema: {
        tags: ['certificates'],
        summary: 'Whether a certificate is valid (public: its number is the permission)',
        params: CertificateParams,
        response: { 200: CertificateVerification },
      },
    },
    async (request, reply) => {
      const id = CertificateId.safeParse(request.params.certificateId);
      const row = id.success ? await certificateById(app.queries.db, id.data) : null;
      if (!row) throw unknown();
      reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
      return { success: true as const, ...toVerification(row) };
    },
  );
}
