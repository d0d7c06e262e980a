import pg from 'pg';

interface Listener {
  onNotify(payload: string): void;
  onReconnect?(): void;
  onLost?(): void;
}

const RECONNECT_DELAYS_MS = [100, 250, 500, 1000, 2000, 5000];

/**
 * One listening connection for every channel a database handle listens on (SqlDatabase.listen).
 * PostgreSQL wakes every backend listening in the database at each NOTIFY, whatever its channels,
 * so each listening connection costs a wake-up per append and per projector batch: a portal that
 * listened on three channels over three connections paid three. Channels are LISTENed on the
 * shared connection as their first listener comes and UNLISTENed as their last goes; the
 * connection is closed when nobody listens. A lost connection, or one that could not be opened,
 * is opened again (with growing delays), every channel LISTENed again, and then every listener
 * told (onReconnect): it may have missed notifications meanwhile. A listener is also told when the
 * connection is lost, or could not be opened for it (onLost): until onReconnect, it hears nothing.
 */
export function sharedListener(connectionString: string, report: (error: Error) => void) {
  const channels = new Map<string, Set<Listener>>();
  let client: pg.Client | undefined;
  let opening: Promise<pg.Client> | undefined;
  let attempt = 0;
  let retrying: NodeJS.Timeout | undefined;

  // One statement at a time on the connection (pg deprecates queueing them on a client).
  const sent = new WeakMap<pg.Client, Promise<unknown>>();
  const send = (to: pg.Client, text: string) => {
    const done = (sent.get(to) ?? Promise.resolve()).catch(() => {}).then(() => to.query(text));
    sent.set(to, done);
    return done;
  };
  /** Closes a connection without it counting as lost. */
  const drop = (connection: pg.Client) => {
    connection.removeAllListeners('end');
    return connection.end().catch(() => {});
  };
  const open = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    opening ??= (async () => {
      const next = new pg.Client({ connectionString });
      next.on('notification', ({ channel, payload }) =>
        channels.get(channel)?.forEach((listener) => listener.onNotify(payload ?? '')),
      );
      next.on('error', (error) => {
        report(error);
        lost(next);
      });
      next.on('end', () => lost(next));
      try {
        await next.connect();
        for (const channel of channels.keys()) await send(next, `LISTEN ${pg.escapeIdentifier(channel)}`);
      } catch (error) {
        void drop(next);
        throw error;
      }
      // Everybody left while it opened.
      if (channels.size === 0) {
        void drop(next);
        throw new NobodyListens();
      }
      client = next;
      return next;
    })().finally(() => (opening = undefined));
    return opening;
  };
  const lost = (failed: pg.Client) => {
    if (client !== failed) return;
    client = undefined;
    void drop(failed);
    channels.forEach((listeners) => listeners.forEach((listener) => listener.onLost?.()));
    retry();
  };
  const retry = () => {
    if (retrying || channels.size === 0) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)];
    attempt++;
    retrying = setTimeout(() => {
      retrying = undefined;
      if (client || channels.size === 0) return;
      open().then(
        () => {
          attempt = 0;
          channels.forEach((listeners) => listeners.forEach((listener) => listener.onReconnect?.()));
        },
        (error: Error) => {
          if (error instanceof NobodyListens) return;
          report(error);
          retry();
        },
      );
    }, delay).unref();
  };

  return async function listen(channel: string, listener: Listener): Promise<() => Promise<void>> {
    let listeners = channels.get(channel);
    const first = !listeners;
    if (!listeners) channels.set(channel, (listeners = new Set()));
    listeners.add(listener);
    const stop = async () => {
      listeners.delete(listener);
      if (listeners.size > 0 || channels.get(channel) !== listeners) return;
      channels.delete(channel);
      const current = client;
      if (channels.size === 0) {
        clearTimeout(retrying);
        retrying = undefined;
        client = undefined;
        if (current) await drop(current);
      } else if (current) {
        await send(current, `UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => {});
      }
    };
    try {
      const connection = await open();
      if (first) await send(connection, `LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      // Not refused: the server may be starting. It joins the connection's retries, and is told
      // (onReconnect) once listening.
      report(error as Error);
      listener.onLost?.();
      if (!client) retry();
    }
    return stop;
  };
}

class NobodyListens extends Error {}
