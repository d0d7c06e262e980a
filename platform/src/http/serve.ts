import type { FastifyInstance } from 'fastify';

/** However long requests in flight take, a stopping service is gone by then (systemd, Docker and production.sh wait 10 s). */
const STOP_DEADLINE_MS = 9000;

/**
 * Listens, and on SIGTERM or SIGINT stops taking requests, lets the ones in flight finish (live
 * streams are ended, and browsers reconnect to another instance), then releases what the service
 * holds (`release`: the projector, whose progress is committed with each batch, the database), and
 * exits; within STOP_DEADLINE_MS whatever still hangs.
 */
export async function serveUntilStopped(
  app: FastifyInstance,
  address: { port: number; host: string },
  release: () => Promise<void>,
): Promise<void> {
  let stopping = false;
  // An answer given while stopping closes its connection: a client's keep-alive connection would
  // otherwise hold the server open (Node closes idle ones once, when closing starts).
  app.addHook('onSend', async (_request, reply) => {
    if (stopping) reply.header('connection', 'close');
  });
  const stop = async () => {
    stopping = true;
    setTimeout(() => {
      app.log.error(`not stopped ${STOP_DEADLINE_MS / 1000} s after the signal; exiting`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    // Connections that fall idle later (after a live stream was ended, say) are closed as they do.
    const idle = setInterval(() => app.server.closeIdleConnections(), 100);
    await app.close().finally(() => clearInterval(idle));
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
