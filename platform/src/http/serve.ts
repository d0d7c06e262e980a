import type { FastifyInstance } from 'fastify';

/**
 * Listens, and on SIGTERM or SIGINT stops taking requests, lets the ones in flight finish, then
 * releases what the service holds (`release`: the projector, the database), and exits.
 */
export async function serveUntilStopped(
  app: FastifyInstance,
  address: { port: number; host: string },
  release: () => Promise<void>,
): Promise<void> {
  const stop = async () => {
    await app.close();
    await release();
    // Everything is released; a client library that still holds a socket (kafkajs can, after its
    // broker restarted) must not keep a stopped service alive.
    setTimeout(() => {
      app.log.warn('handles still open 2 s after release; exiting anyway');
      process.exit(0);
    }, 2000).unref();
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  await app.listen(address);
}
