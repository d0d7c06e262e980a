import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CataloguePage, CatalogueQuery } from '@portal/contracts/views/catalogue';
import { searchCatalogue } from '../../core/catalogue-table.ts';
import { answer, paged } from '../../core/answers.ts';

/** The members' catalogue (/e-market): public courses to enrol in, and the member's own courses. */
export async function catalogueRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/courses',
    {
      schema: {
        tags: ['courses'],
        summary: 'Public courses (or with mine=true the signed-in user’s own), newest first, pages of 9',
        querystring: CatalogueQuery,
        response: { 200: CataloguePage },
      },
    },
    async (request) => {
      const { courses, total } = await searchCatalogue(app.queries.db, request.session!.accountId, request.query);
      return answer(request, 'courses.loaded', paged({ courses, total }, request.query));
    },
  );
}
