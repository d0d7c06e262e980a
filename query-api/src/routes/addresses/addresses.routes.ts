import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ProvinceList } from '@portal/contracts/views/address';
import { thaiAddresses } from '../../core/thai-addresses.ts';

const ONE_DAY = 24 * 3600;

/**
 * Public: the registration forms need it before anyone signs in. Building the tree takes seconds
 * of CPU, so it never delays the start: with `warm`, it is built just after the service is ready
 * (so the first visitor does not wait); otherwise on the first request.
 */
export async function addressRoutes(app: FastifyInstance, options: { warm?: boolean }): Promise<void> {
  if (options.warm) {
    app.addHook('onReady', async () => {
      setTimeout(() => void thaiAddresses().catch((error) => app.log.warn({ err: error }, 'address data')), 100);
    });
  }
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
