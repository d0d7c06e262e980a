import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PartnerHome } from '@portal/contracts/views/partner-home';
import { MemberReport, Overview, OverviewQuery } from '@portal/contracts/views/reports';
import { findAccount } from '../../core/accounts-table.ts';
import { memberReport } from '../../core/member-report.ts';
import { overview } from '../../core/overview.ts';
import { partnerHome } from '../../core/partner-home.ts';
import { forbidden, notFound } from '@portal/platform/domain/errors';
import { answer } from '../../core/answers.ts';

/** The member's dashboard (spec 001 section 2.6), the admins' overview (/admin) and the partner's home. */
export async function reportRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    // The spec's {userId}; named :id because the router needs one name per position.
    '/api/admin/courses/:id/report',
    {
      schema: {
        tags: ['reports'],
        summary:
          "A member's courses with progress, attendance and the next rounds: one's own, or anyone's for an admin",
        params: z.object({ id: z.string().max(64) }),
        response: { 200: MemberReport },
      },
    },
    async (request) => {
      const session = request.session!;
      const memberId = request.params.id;
      if (session.accountId !== memberId && session.role !== 'admin') throw forbidden('auth.ownerOrAdmin');
      if (!(await findAccount(app.queries.db, memberId))) throw notFound('profile.notFound');
      const now = new Date();
      return answer(request, 'report.loaded', {
        ...(await memberReport(app.queries.db, memberId, now)),
        serverTime: now.toISOString(),
      });
    },
  );

  routes.get(
    '/api/partner/home',
    {
      config: { roles: ['partner', 'admin'] },
      schema: {
        tags: ['reports'],
        summary:
          "The caller's own courses, their rounds open now or within the week, and the attendance rate of those held",
        response: { 200: PartnerHome },
      },
    },
    async (request) => {
      const now = new Date();
      return answer(request, 'report.loaded', {
        ...(await partnerHome(app.queries.db, request.session!.accountId, now)),
        serverTime: now.toISOString(),
      });
    },
  );

  routes.get(
    '/api/admin/overview',
    {
      config: { roles: ['admin'] },
      schema: {
        tags: ['reports'],
        summary: 'Members by role and status, scans per day, attendance rate per course and the busiest rounds',
        querystring: OverviewQuery,
        response: { 200: Overview },
      },
    },
    async (request) => answer(request, 'report.loaded', { ...(await overview(app.queries.db, request.query)) }),
  );
}
