import type { FastifyInstance } from 'fastify';

/**
 * Listens, and on SIGTERM or SIGINT stops taking requests, lets the ones in flight finish, then
 * releases what the service holds (`release`: the projector, the database).
 */
export async function serveUntilStopped(
  app: FastifyInstance,
  address: { port: number; host: string },
  release: () => Promise<void>,
): Promise<void> {
  const stop = async () => {
    await app.close();
    await release();
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  await app.listen(address);
}
