import type { SqlDatabase } from '../store/sql.ts';

/**
 * A transaction with an id, open until released (PostgreSQL: a connection of its own): the log's
 * readers hold back what is committed after it began, as behind a projector's batch or a command
 * still running.
 */
export async function holdTransactionOpen(db: SqlDatabase): Promise<{ release: () => Promise<void> }> {
  let release = () => {};
  let began = () => {};
  const open = new Promise<void>((resolve) => (began = resolve));
  const done = db.transaction(async (tx) => {
    await tx.query('SELECT pg_current_xact_id()');
    began();
    await new Promise<void>((resolve) => (release = resolve));
  });
  await open;
  return { release: () => (release(), done) };
}
