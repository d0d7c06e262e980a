import { type PGlite, type messages, parse, protocol } from '@electric-sql/pglite';
import { KeptStatements, isKept, isReshaped, mayReshape } from './kept-statements.ts';
import { bindMessage, textOf } from './pglite-bind.ts';
import { type Column, readRows, resultFormats } from './pglite-rows.ts';

/**
 * The embedded database's statements, each parsed and described once (a named prepared
 * statement, as a PostgreSQL driver keeps per connection), then run by one message to PGlite:
 * bind, execute, sync, its answer's rows read by pglite-rows.ts. PGlite's own `query` parses,
 * describes and plans every statement anew in six calls into its WebAssembly; on the portal's hot
 * paths (a scan, the projector's batch) that was most of a statement's cost. PostgreSQL re-plans
 * a prepared statement whose tables changed, and keeps a generic plan only when it costs no more
 * than the statement's own plans.
 *
 * Which statements are kept, how many, and which are closed: kept-statements.ts. A statement
 * that may change tables' shape (CREATE, ALTER, DROP: a rebuild's) forgets them all, and so does
 * the first statement after the transaction it ran in, which may have rolled it back: a kept
 * statement never answers rows of a shape its tables no longer have (its row description is kept
 * here, unlike PostgreSQL's driver, which asks for it on every call). PGlite has one session, and
 * every statement of this process passes here. A change this module cannot see (DDL run inside a
 * function) makes PostgreSQL refuse the statement once; it is then forgotten and prepared anew.
 */
interface Statement {
  name: string;
  /** The type of each parameter, as PostgreSQL inferred it (PGlite serialises values by it). */
  parameterTypes: number[];
  /** Its columns, or null for a statement that returns no rows. */
  columns: Column[] | null;
  /** The format each column is asked for in (pglite-rows.ts: bytea in binary). */
  resultFormats: number[];
}

/** The database, or a transaction PGlite holds for the caller. */
type On = Pick<PGlite, 'query'>;

/** Runs a statement on PGlite, or in a transaction of its, as PGlite's own `query` would. */
export type PgliteQuery = (on: On, text: string, params: readonly unknown[] | undefined) => Promise<unknown[]>;

export function pgliteStatements(db: PGlite): PgliteQuery {
  const kept = new KeptStatements<Statement>();
  /**
   * Where tables' shape may have changed: every statement is forgotten before the next one runs,
   * and those prepared there once it is over (it may have been rolled back). These only say what
   * `run` must forget; `kept` changes in `run` alone, under PGlite's lock, so a statement is
   * never closed between its preparing and its binding.
   */
  let forgetting: On | null = null;
  let changedIn: On | null = null;
  let named = 0;

  const closing = () => kept.closing.splice(0).map((name) => protocol.serialize.close({ type: 'S', name }));
  const send = (inTransaction: boolean, ...parts: Uint8Array[]) =>
    db.execProtocolStream(concat([...closing(), ...parts, protocol.serialize.sync()]), { syncToFs: !inTransaction });
  /** PGlite's serializer for a type the bind message's own does not know (pglite-bind.ts). */
  const fallback = (type: number) => db.serializers[type] ?? String;
  /** PGlite's parsers (complete once it is ready: it adds its array types' then). */
  const parsers = db.parsers;

  async function prepare(text: string, inTransaction: boolean): Promise<Statement> {
    const name = `portal_${++named}`;
    const answer = await send(
      inTransaction,
      protocol.serialize.parse({ name, text }),
      protocol.serialize.describe({ type: 'S', name }),
    );
    const description = answer.find(
      (message): message is messages.RowDescriptionMessage => message.name === 'rowDescription',
    );
    const columns = description?.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID })) ?? null;
    const statement: Statement = {
      name,
      parameterTypes: parse.parseDescribeStatementResults(answer),
      columns,
      resultFormats: columns ? resultFormats(columns) : [],
    };
    return kept.keep(text, statement);
  }

  async function run(on: On, text: string, params: readonly unknown[], inTransaction: boolean) {
    if (forgetting || (changedIn && changedIn !== on)) {
      changedIn = forgetting;
      forgetting = null;
      kept.forgetAll();
    }
    const statement = kept.get(text) ?? (await prepare(text, inTransaction));
    const values = params.map((param, i) =>
      param === null || param === undefined ? null : textOf(statement.parameterTypes[i]!, param, fallback),
    );
    const chunks: Uint8Array[] = [];
    await db.execProtocolRawStream(bindMessage(statement.name, values, closing(), statement.resultFormats), {
      syncToFs: !inTransaction,
      // A view of PGlite's memory, written over by its next answer.
      onRawData: (chunk) => chunks.push(chunk.slice()),
    });
    try {
      // The row description came once, when it was prepared: the rows are read by it.
      const answer = chunks.length === 1 ? chunks[0]! : concat(chunks);
      return readRows(answer, statement.columns, statement.resultFormats, parsers);
    } catch (error) {
      // Its tables changed shape where this module could not see it (a function's DDL): refused
      // once, then prepared anew.
      if (isReshaped(error)) kept.forget(text);
      throw error;
    }
  }

  return async (on, text, params = []) => {
    if (!isKept(text)) {
      if (!mayReshape(text)) return (await on.query(text, params as unknown[])).rows;
      // Forgotten before the next statement, prepared before or after this one.
      forgetting = on;
      try {
        return (await on.query(text, params as unknown[])).rows;
      } finally {
        forgetting = on;
      }
    }
    // The locks PGlite's own `query` takes: a transaction's statements run in it alone.
    const inTransaction = on !== db;
    const work = () => run(on, text, params, inTransaction);
    return inTransaction ? db.runExclusive(work) : db._runExclusiveTransaction(() => db.runExclusive(work));
  };
}

const concat = (parts: Uint8Array[]) => {
  const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
};
