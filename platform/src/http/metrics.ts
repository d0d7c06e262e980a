import type {} from '@fastify/swagger'; // the route schema's hide
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import client from 'prom-client';
import { lagBehind, readModelLag } from '../read-models/checkpoint.ts';
import { kafkaProjectorLags } from '../read-models/partitions.ts';
import { readFaults } from '../read-models/projection-faults.ts';
import type { Checkpoint, EventStore } from '../store/port.ts';
import type { Sql } from '../store/sql.ts';

/**
 * Prometheus metrics (prom-client), one registry per process: GET /metrics on every service.
 * What each means is in the README ("Running in production", Metrics).
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'portal_' });

const requests = new client.Counter({
  name: 'portal_http_requests_total',
  help: 'HTTP requests answered, by method, route (its pattern) and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});
const serverErrors = new client.Counter({
  name: 'portal_http_server_errors_total',
  help: 'HTTP requests answered with a 5xx, by method and route.',
  labelNames: ['method', 'route'] as const,
  registers: [registry],
});
const duration = new client.Histogram({
  name: 'portal_http_request_duration_seconds',
  help: 'Time from a request arriving to its answer being sent, by method and route.',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});
const inFlight = new client.Gauge({
  name: 'portal_http_requests_in_flight',
  help: 'Requests received and not yet answered (the request queue of this process).',
  registers: [registry],
});

/** Scans recorded by command-api, by outcome (accepted, refused) and, for a refusal, its reason. */
export const scansRecorded = new client.Counter({
  name: 'portal_scans_total',
  help: 'Scans recorded, by outcome (accepted or refused) and the reason of a refusal.',
  labelNames: ['outcome', 'reason'] as const,
  registers: [registry],
});

/** What this process can say about the read side and the relay, asked when metrics are scraped. */
export interface MetricSources {
  store?: EventStore;
  /** The read models' database: their lag, failing projections and Kafka projectors' progress. */
  readModels?: Sql;
  /** The relay's last published checkpoint, when the relay runs here. */
  relayCheckpoint?: () => Checkpoint | null;
  /** Connection pools: in use, idle and callers waiting for one. */
  pools?: Record<string, () => { total: number; idle: number; waiting: number } | null>;
}
let sources: MetricSources = {};

/**
 * One answer per scrape for what several gauges read (the events and the seconds of one lag):
 * a scrape collects its gauges within milliseconds, so an answer younger than this is reused.
 */
const SCRAPE_MS = 500;
function perScrape<T>(read: (store: EventStore, readModels: Sql) => Promise<T>) {
  let last: { at: number; store: EventStore; readModels: Sql; answer: Promise<T> } | null = null;
  return (store: EventStore, readModels: Sql) => {
    const fresh = last && last.store === store && last.readModels === readModels && Date.now() - last.at <= SCRAPE_MS;
    if (!fresh) last = { at: Date.now(), store, readModels, answer: read(store, readModels) };
    return last!.answer;
  };
}
const readModelLagNow = perScrape(readModelLag);
const kafkaProjectorLagsNow = perScrape(kafkaProjectorLags);

const gauge = (name: string, help: string, labelNames: string[], collect: (g: client.Gauge) => Promise<void>) =>
  new client.Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      await collect(this);
    },
  });

// All projections advance together, in one transaction a batch: this is each projection's lag.
for (const [unit, field, help] of [
  ['events', 'lagEvents', 'Committed events the read models have not applied yet.'],
  ['seconds', 'lagSeconds', 'How long the oldest event the read models have not applied has waited.'],
] as const) {
  gauge(`portal_read_model_lag_${unit}`, help, [], async (g) => {
    if (sources.store && sources.readModels) g.set((await readModelLagNow(sources.store, sources.readModels))[field]);
  });
}
gauge(
  'portal_projection_failing',
  'Projections set aside at an event they could not apply (1 each); their read model is going stale.',
  ['projection'],
  async (g) => {
    if (!sources.readModels) return;
    for (const fault of await readFaults(sources.readModels)) g.set({ projection: fault.projection }, 1);
  },
);
for (const [unit, field, help] of [
  ['events', 'lagEvents', 'Events each Kafka projector has not applied yet on its partitions.'],
  ['seconds', 'lagSeconds', 'How long the oldest event each Kafka projector has not applied has waited.'],
] as const) {
  gauge(`portal_kafka_projector_lag_${unit}`, help, ['projector'], async (g) => {
    if (!sources.store || !sources.readModels) return;
    for (const p of await kafkaProjectorLagsNow(sources.store, sources.readModels))
      g.set({ projector: p.name }, p[field]);
  });
}
gauge('portal_relay_lag_events', 'Committed events the relay has not published to Kafka yet.', [], async (g) => {
  const checkpoint = sources.relayCheckpoint?.();
  if (sources.store && checkpoint) g.set((await lagBehind(sources.store, checkpoint)).lagEvents);
});
gauge(
  'portal_db_pool_connections',
  'Database connections of each pool, by state: in use, idle, and callers waiting for one (a queue).',
  ['pool', 'state'],
  async (g) => {
    for (const [pool, stats] of Object.entries(sources.pools ?? {})) {
      const now = stats();
      if (!now) continue;
      g.set({ pool, state: 'in_use' }, now.total - now.idle);
      g.set({ pool, state: 'idle' }, now.idle);
      g.set({ pool, state: 'waiting' }, now.waiting);
    }
  },
);

/**
 * GET /metrics for Prometheus, with every request counted and timed by route. Scraped from the
 * machine itself (loopback, and not through nginx, which refuses /metrics), or from anywhere
 * with `Authorization: Bearer` METRICS_TOKEN. Nothing in it is personal, but counts of a
 * business are not for anyone on the network.
 */
export function installMetrics(app: FastifyInstance, options: { service: string } & MetricSources): void {
  registry.setDefaultLabels({ service: options.service });
  sources = options;
  app.addHook('onRequest', async () => inFlight.inc());
  app.addHook('onResponse', async (request, reply) => {
    inFlight.dec();
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) serverErrors.inc({ method: request.method, route });
  });
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!mayScrape(request)) return reply.callNotFound();
    return reply
      .type(registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  });
}

function mayScrape(request: FastifyRequest): boolean {
  const token = process.env.METRICS_TOKEN ?? '';
  const given = (request.headers.authorization ?? '').replace(/^Bearer /, '');
  if (token.length > 0 && Buffer.byteLength(given) === Buffer.byteLength(token)) {
    return timingSafeEqual(Buffer.from(given), Buffer.from(token));
  }
  return ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(request.ip);
}
