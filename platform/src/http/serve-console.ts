import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built console. Any other GET outside /api answers index.html, so the console's own
 * routes (/admin, /courses/123 ...) survive a reload; unknown /api paths stay JSON 404s.
 */
export async function serveConsole(app: FastifyInstance, options: { root: string }): Promise<void> {
  await app.register(fastifyStatic, { root: options.root, wildcard: false });
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    if (request.url === '/api' || request.url.startsWith('/api/')) return reply.callNotFound();
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });
}
