import { LRUCache } from 'lru-cache';

/**
 * The statements an adapter keeps prepared, by text: PGlite's for its one session
 * (pglite-statements.ts), PostgreSQL's for each pooled connection (postgres.ts). Parsing and
 * planning a statement on every call was most of a short statement's cost on both; a kept one is
 * parsed once, and PostgreSQL re-plans it only when its tables change, keeping a generic plan
 * when that costs no more than the plans made for the values given.
 *
 * Only SELECT, INSERT, UPDATE, DELETE and WITH statements are kept, at most `capacity` of them:
 * past it the least recently used is forgotten and its name queued in `closing`, for the adapter
 * to close with its next message on that session (a statement's text may differ from call to
 * call, a list's length written into it, so the kept must be bounded).
 */
export class KeptStatements<Statement extends { name: string }> {
  /**
   * Names forgotten and not yet closed in the database. PGlite's Close of one that is gone is no
   * error; PostgreSQL's DEALLOCATE is, so postgres.ts closes only those its server prepared.
   */
  readonly closing: string[] = [];
  private readonly kept: LRUCache<string, Statement>;

  constructor(capacity = 256) {
    // Whatever leaves (the least recently used past `capacity`, or one forgotten) is to be closed.
    this.kept = new LRUCache({ max: capacity, dispose: (statement) => this.closing.push(statement.name) });
  }

  /** The statement kept for `text`, now the most recently used. */
  get(text: string): Statement | undefined {
    return this.kept.get(text);
  }

  keep(text: string, statement: Statement): Statement {
    this.kept.set(text, statement);
    return statement;
  }

  forget(text: string): void {
    this.kept.delete(text);
  }

  forgetAll(): void {
    this.kept.clear();
  }
}

const KEPT = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;
/** PostgreSQL's refusal of a prepared statement whose result columns changed. */
const RESHAPED = /cached plan must not change result type/;

const LEAVES_SHAPES = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET|SHOW|RESET|LISTEN|UNLISTEN|NOTIFY)\b/i;

/** Whether a statement of this text is worth keeping prepared (it cannot change tables' shape). */
export const isKept = (text: string) => KEPT.test(text);

/**
 * Whether a statement may change tables' shape (CREATE, ALTER, DROP: a schema's, a rebuild's):
 * after one, a kept statement could answer rows of a shape its tables no longer have, or be
 * refused.
 */
export const mayReshape = (text: string) => !KEPT.test(text) && !LEAVES_SHAPES.test(text);

/**
 * Whether PostgreSQL refused a kept statement because its tables changed shape where the adapter
 * could not see it (DDL run in a function, or by another session): it is refused at its bind,
 * before it runs, and prepared anew once forgotten.
 */
export const isReshaped = (error: unknown) => error instanceof Error && RESHAPED.test(error.message);
