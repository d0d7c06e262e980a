import { mkdirSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves uploaded files under /uploads to signed-in users only (profile photos are personal
 * data). Names are random and never reused, so browsers may keep them a day.
 */
export async function uploadRoutes(app: FastifyInstance, options: { root: string }): Promise<void> {
  mkdirSync(options.root, { recursive: true });
  await app.register(fastifyStatic, {
    root: options.root,
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    cacheControl: false,
    setHeaders: (response) => response.header('cache-control', 'private, max-age=86400'),
  });
}
