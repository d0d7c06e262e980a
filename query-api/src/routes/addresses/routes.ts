import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ProvinceList } from '../../contracts/address.ts';
import { thaiAddresses } from '../../core/thai-addresses.ts';

const ONE_DAY = 24 * 3600;

/**
 * Public: the registration forms need it before anyone signs in. Built on the first request, not
 * at start: building takes seconds of CPU that a starting service should not spend.
 */
export async function addressRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/address/provinces',
    {
      schema: {
        tags: ['addresses'],
        summary: 'Thai provinces with districts (amphure), subdistricts (tambon) and postal codes',
        response: { 200: ProvinceList },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', `public, max-age=${ONE_DAY}`);
      return thaiAddresses();
    },
  );
}
