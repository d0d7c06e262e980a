import { ExportZone, asMoment, asText } from '../../core/safe-csv.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AttendanceHistory, AuditPage, AuditQuery, CountsAsOfAnswer, instant } from '@portal/contracts/views/audit';
import { attendanceHistory } from '../../core/attendance-history.ts';
import { searchAttempts } from '../../core/audit-table.ts';
import { countsAsOf } from '../../core/counts-as-of.ts';
import { notFound } from '@portal/platform/domain/errors';
import { answer, paged, csvFile } from '../../core/answers.ts';

export const AUDIT_FILE = 'scan_audit.csv';
const AUDIT_COLUMNS = [
  'Server time',
  'Device time',
  'Outcome',
  'Reason',
  'Course',
  'Course ID',
  'Round ID',
  'Member',
  'Member ID',
  'Scanner',
  'Scanner ID',
  'Device',
  'Method',
  'Uploaded late',
  'Decided offline',
];

/**
 * The audit (issue 6), admins only: every scan attempt, filtered and paged, and the same rows as
 * CSV; a member's attendance history; a course's counts as they stood at a past moment.
 */
export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/admin/audit/scans',
    {
      config: { roles: ['admin'] },
      schema: {
        tags: ['attendance'],
        summary: 'Every scan attempt, newest first: filter by course, round, member, scanner, outcome, from and to',
        querystring: AuditQuery,
        response: { 200: AuditPage },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      const { attempts, total } = await searchAttempts(app.queries.db, request.query, { page, pageSize });
      return answer(request, 'courses.loaded', paged({ attempts, total }, request.query));
    },
  );

  routes.get(
    '/api/admin/audit/scans.csv',
    {
      config: { roles: ['admin'] },
      schema: {
        tags: ['attendance'],
        summary: `The filtered attempts as ${AUDIT_FILE} (UTF-8 with a byte-order mark, so Excel shows Thai)`,
        querystring: AuditQuery.extend(ExportZone.shape),
      },
    },
    async (request, reply) => {
      const { attempts } = await searchAttempts(app.queries.db, request.query, null);
      const rows = attempts.map((a) => [
        asMoment(a.serverTime),
        asMoment(a.deviceTime),
        a.outcome.toUpperCase(),
        a.reason ?? '',
        a.courseTopic ?? '',
        asText(a.courseId),
        asText(a.roundId),
        a.memberName ?? '',
        asText(a.memberId),
        a.scannerName ?? '',
        asText(a.scannerId),
        asText(a.deviceId),
        a.method ?? '',
        a.lateUploaded ? 'yes' : 'no',
        a.offlineDecision ?? '',
      ]);
      return csvFile(reply, { name: AUDIT_FILE, columns: AUDIT_COLUMNS, zone: request.query.tz }, rows);
    },
  );

  routes.get(
    '/api/admin/courses/:id/counts',
    {
      config: { roles: ['admin'] },
      schema: {
        tags: ['attendance'],
        summary: 'A course’s counts as they stood at `asOf` (default now), folded from the event log itself',
        params: z.object({ id: z.string() }),
        querystring: z.object({ asOf: instant }),
        response: { 200: CountsAsOfAnswer },
      },
    },
    async (request) => {
      const asOf = request.query.asOf ? new Date(request.query.asOf) : new Date();
      const counts = await countsAsOf(app.queries.db, app.queries.store, request.params.id, asOf);
      if (!counts) throw notFound('course.notFound');
      return answer(request, 'courses.loaded', { asOf: asOf.toISOString(), counts });
    },
  );

  routes.get(
    '/api/admin/members/:id/attendance',
    {
      config: { roles: ['admin'] },
      schema: {
        tags: ['attendance'],
        summary: 'A member’s attendance history: every round they were scanned in, newest first (voided ones marked)',
        params: z.object({ id: z.string() }),
        response: { 200: AttendanceHistory },
      },
    },
    async (request) =>
      answer(request, 'courses.loaded', { attendance: await attendanceHistory(app.queries.db, request.params.id) }),
  );
}
