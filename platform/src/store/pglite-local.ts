import type { PGlite } from '@electric-sql/pglite';
import { inProcessNotifications } from './in-process-notifications.ts';
import { pgliteStatements } from './pglite-statements.ts';
import type { Sql, SqlDatabase } from './sql.ts';

/**
 * A PGlite in this thread as a SqlDatabase: in the embedded database's own thread
 * (pglite-worker.ts), for the statements of the portal's thread and the modules run beside it.
 * NOTIFY needs no statement: every listener is in this process, in this thread or the portal's,
 * which `tell` passes it to.
 */
export function localPglite(db: PGlite, tell: (channel: string, payload: string) => void) {
  const notifications = inProcessNotifications(tell);
  const statement = pgliteStatements(db);
  const rows = async (on: Pick<PGlite, 'query'>, text: string, params?: readonly unknown[]) =>
    (await statement(on, text, params)) as never[];
  const database: SqlDatabase = {
    kind: 'pglite',
    query: (text, params) => rows(db, text, params),
    notify: notifications.notify,
    async transaction(work) {
      const held = notifications.held();
      const result = await db.transaction((tx) =>
        work({ query: (text, params) => rows(tx, text, params), notify: held.notify } satisfies Sql),
      );
      held.release();
      return result;
    },
    listen: notifications.listen,
    async useSessionSetting(name, value) {
      await db.query(`SELECT set_config($1, $2, false)`, [name, value]);
    },
    // The portal's thread owns the database and closes it (pglite.ts); a module beside it may not.
    close: () => Promise.reject(new Error("the embedded database is closed by the portal's thread")),
  };
  return { database, deliver: notifications.deliver, statement };
}
