import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { isAssistant } from '../../core/assistants-table.ts';
import { CHANGES_CHANNEL } from '@portal/platform/read-models/checkpoint';
import { forbidden } from '@portal/platform/domain/errors';

const KEEP_ALIVE_MS = 20_000;
/** The notification badge recounts at most once a second, however busy the log. */
const THROTTLE_MS = 1000;

interface Change {
  position: number;
  courses: string[] | '*';
}

/**
 * Live updates (issue 5): a server-sent event stream per course. The projector NOTIFYs what each
 * batch changed; every open page of that course gets `event: changed` with the position, and
 * reloads what it shows (asking for that position, so it never reads older data).
 */
export async function liveRoutes(app: FastifyInstance): Promise<void> {
  const listeners = new Set<(change: Change) => void>();
  const unlisten = await app.queries.db.listen(
    CHANGES_CHANNEL,
    (payload: string) => {
      let change: Change;
      try {
        change = JSON.parse(payload ?? '') as Change;
      } catch {
        return;
      }
      listeners.forEach((listener) => listener(change));
    },
    // After a reconnect some changes may have been missed: every page reloads.
    () => listeners.forEach((listener) => listener({ position: 0, courses: '*' })),
  );
  app.addHook('onClose', async () => unlisten());
  // Open streams would keep the server from closing: end them first.
  const streams = new Set<{ end(): void }>();
  app.addHook('preClose', async () => streams.forEach((stream) => stream.end()));

  /**
   * Opens a server-sent event stream; `wants` decides which changes it hears of. With `throttleMs`
   * changes closer together than that are sent as one, the latest, at the end of the wait.
   */
  const stream = (request: FastifyRequest, reply: FastifyReply, wants: (change: Change) => boolean, throttleMs = 0) => {
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    out.write('retry: 2000\n\n');
    let lastSent = 0;
    let pending: ReturnType<typeof setTimeout> | null = null;
    let latest = 0;
    const send = () => {
      pending = null;
      lastSent = Date.now();
      out.write(`event: changed\ndata: ${JSON.stringify({ position: latest })}\n\n`);
    };
    const listener = (change: Change) => {
      if (!wants(change)) return;
      latest = Math.max(latest, change.position);
      if (pending) return;
      const wait = lastSent + throttleMs - Date.now();
      if (wait <= 0) send();
      else pending = setTimeout(send, wait);
    };
    listeners.add(listener);
    streams.add(out);
    const keepAlive = setInterval(() => out.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    request.raw.on('close', () => {
      clearInterval(keepAlive);
      if (pending) clearTimeout(pending);
      listeners.delete(listener);
      streams.delete(out);
    });
  };

  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/live/courses/:courseId',
    {
      // Staff, and members who assist in the course (its round page follows it live).
      config: { roles: ['admin', 'partner', 'member'] },
      schema: {
        tags: ['attendance'],
        summary: 'Server-sent events: `changed` whenever the course, its rounds or their attendance change',
        params: z.object({ courseId: z.string() }),
      },
    },
    async (request, reply) => {
      const { courseId } = request.params;
      const { accountId, role } = request.session!;
      if (role === 'member' && !(await isAssistant(app.queries.db, courseId, accountId))) {
        throw forbidden('course.notScanner');
      }
      stream(request, reply, (change) => change.courses === '*' || change.courses.includes(courseId));
    },
  );

  routes.get(
    '/api/live/notifications',
    {
      schema: {
        tags: ['notifications'],
        summary:
          'Server-sent events: `changed` after the read models change (at most once a second), so the badge can recount',
      },
    },
    (request, reply) => stream(request, reply, () => true, THROTTLE_MS),
  );
}
