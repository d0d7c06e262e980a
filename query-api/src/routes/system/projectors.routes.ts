import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { readModelLag } from '@portal/platform/read-models/checkpoint';
import { kafkaProjectorLags } from '@portal/platform/read-models/partitions';
import { readFaults } from '@portal/platform/read-models/projection-faults';
import { ProjectorsAnswer } from '@portal/contracts/views/projectors';
import { answer } from '../../core/answers.ts';

/** The admins' view of the projectors: how far the read models, and each projector, are behind the log. */
export async function projectorRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/projectors',
    {
      config: { roles: ['admin'] },
      schema: {
        tags: ['health'],
        summary: 'How far the read models and each projector are behind the log (events and seconds)',
        response: { 200: ProjectorsAnswer },
      },
    },
    async (request) => {
      const { db, store } = app.queries;
      const whole = await readModelLag(store, db);
      const kafka = await kafkaProjectorLags(store, db);
      const readModels = {
        position: whole.checkpoint.position,
        lagEvents: whole.lagEvents,
        lagSeconds: whole.lagSeconds,
      };
      const projectors =
        kafka.length > 0
          ? kafka
          : [{ name: 'in-process', partitions: [], appliedEvents: null, ...whole, updatedAt: null }];
      return answer(request, 'report.loaded', {
        mode: kafka.length > 0 ? ('kafka' as const) : ('direct' as const),
        readModels,
        projectors,
        failing: await readFaults(db),
      });
    },
  );
}
