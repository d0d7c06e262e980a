import { ExportZone, asMoment, asText } from '../../core/safe-csv.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RegistrationList, RegistrationPage, RegistrationQuery } from '@portal/contracts/views/account';
import { searchRegistrations } from '../../core/accounts-table.ts';
import { paged, csvFile } from '../../core/answers.ts';

/** The export's file name and its 12 columns (spec 001 section 9). */
export const CSV_FILE = 'registrations_report.csv';
const CSV_COLUMNS = [
  'ID',
  'Name',
  'Email',
  'Phone',
  'Address',
  'Registration Date',
  'Status',
  'Personal ID',
  'Title',
  'Gender',
  'Date of Birth',
  'Occupation',
];

export async function registrationRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/admin/registration',
    {
      config: { roles: ['admin'] },
      schema: {
        tags: ['registrations'],
        summary:
          'Member and partner registrations (admins only): the whole list, or with `page` one page filtered and sorted',
        querystring: RegistrationQuery,
        response: { 200: z.union([RegistrationPage, RegistrationList]) },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      if (page === undefined) return searchRegistrations(app.queries.db, request.query, null);
      return paged(await searchRegistrations(app.queries.db, request.query, { page, pageSize }), { page, pageSize });
    },
  );

  routes.get(
    '/api/admin/registration/export.csv',
    {
      config: { roles: ['admin'] },
      schema: {
        tags: ['registrations'],
        summary: `The filtered registrations as ${CSV_FILE} (UTF-8 with a byte-order mark, so Excel shows Thai)`,
        querystring: RegistrationQuery.extend(ExportZone.shape),
      },
    },
    async (request, reply) => {
      const { members } = await searchRegistrations(app.queries.db, request.query, null);
      const rows = members.map((m) => [
        asText(m._id),
        m.fullName || m.username,
        m.personalEmail,
        asText(m.personalPhone),
        [m.personalAddress, m.personalSubdistrict, m.personalDistrict, m.personalProvince, m.personalPostalCode]
          .filter(Boolean)
          .join(' '),
        asMoment(m.createdAt),
        m.status.toUpperCase(),
        asText(m.personalId),
        m.title,
        m.gender ?? '',
        m.dateOfBirth ?? '',
        m.occupation ?? '',
      ]);
      return csvFile(reply, { name: CSV_FILE, columns: CSV_COLUMNS, zone: request.query.tz }, rows);
    },
  );
}
