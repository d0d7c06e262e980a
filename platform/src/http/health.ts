import type {} from '@fastify/swagger'; // the route schema's tags and summary
import type { FastifyInstance } from 'fastify';
import { readModelLag } from '../read-models/checkpoint.ts';
import { kafkaProjectorLags } from '../read-models/partitions.ts';
import { readFaults } from '../read-models/projection-faults.ts';
import type { EventStore } from '../store/port.ts';
import type { Sql } from '../store/sql.ts';

export interface HealthOptions {
  service: string;
  store: EventStore;
  /** The read models' database. */
  readModels: Sql;
  /** The projector's own view, when it runs in this process (and its partitions, from Kafka). */
  projector?: { state(): { running: boolean; lastError: string | null }; member?: () => unknown };
}

/**
 * GET /api/health on every service: whether it can reach its database, how far the read models
 * are behind the log (events and seconds), with Kafka how far each projector is behind, and the
 * projections set aside at an event they could not apply (`failing`: which, at which position,
 * why). 503 when something is down or a projection is failing: its read model is going stale.
 */
export function installHealth(app: FastifyInstance, options: HealthOptions): void {
  app.get(
    '/api/health',
    { schema: { tags: ['health'], summary: 'Health and projection lag' } },
    async (_request, reply) => {
      try {
        const readModels = await readModelLag(options.store, options.readModels);
        const projector = options.projector && {
          ...options.projector.state(),
          ...(options.projector.member?.() ?? {}),
        };
        const projectors = await kafkaProjectorLags(options.store, options.readModels);
        const failing = await readFaults(options.readModels);
        const ok = (projector?.running ?? true) && failing.length === 0;
        return reply.code(ok ? 200 : 503).send({
          status: ok ? 'ok' : 'degraded',
          service: options.service,
          readModels,
          projector,
          failing,
          ...(projectors.length > 0 ? { projectors } : {}),
        });
      } catch (error) {
        return reply
          .code(503)
          .send({ status: 'unavailable', service: options.service, error: (error as Error).message });
      }
    },
  );
}
