import type { StoredEvent } from '@portal/contracts/envelope';
import type { PersonalDataReader } from '@portal/platform/privacy/personal-data';
import type { Share } from './log-range.ts';
import type { Checkpoint } from '@portal/platform/store/port';
import type { Sql } from '@portal/platform/store/sql';
import type { StoredRowOf, Table } from '@portal/platform/read-models/table';

/**
 * A read model: its tables (created in `schema`, so a rebuild can fill fresh ones beside the live
 * ones), and how one event changes them. `apply` runs inside the projector's batch transaction,
 * which also moves the checkpoint, so an event is applied exactly once. `personal` opens the
 * personal data sealed in an event (null once the person's key is erased) and seals what a read
 * model keeps of it.
 */
export interface Projection {
  name: string;
  /** Raised whenever the tables or what is written in them change: read models built by another version are rebuilt. */
  version: number;
  createTables(sql: Sql, schema: string): Promise<void>;
  /**
   * Projections that write to this one's tables, or whose tables this one writes to: rebuilt
   * together with it (a projection rebuilt alone rebuilds only its own tables).
   */
  rebuiltWith?: readonly string[];
  /**
   * In a rebuild every projection follows the log on its own connection, apart from the others:
   * one that writes to another's tables does so here, once the whole log is in (while filling,
   * `batch.rebuilding` is true and it leaves that work out). Runs before the rebuilt read models
   * catch up with the log's last events, which are applied as usual.
   */
  afterRebuild?(sql: Sql, schema: string): Promise<void>;
  /**
   * What it writes for an event about a course (`courseOf` in apply.ts) touches only that course's
   * rows, and what it writes for an event about none, no course's: a rebuild on PostgreSQL fills
   * it in several lanes side by side, each holding a share of the courses on a connection of its
   * own (one course's events stay in order in one lane; the events about no course go to the first).
   */
  byCourse?: boolean;
  /**
   * The event types `apply` acts on (the decoders it uses: `readsOf`): it is given only those, and
   * a batch holding none of them passes this projection by without a statement. Unset: it is
   * given every event of every batch.
   */
  reads?: ReadonlySet<string>;
  /**
   * Event types a rebuild writes in the database, by one statement over a span of the log,
   * instead of giving each to `apply` (which live projectors still do): the rows must be those
   * `apply` would write in a rebuild. `fill` writes them for the events of `types` after `after`
   * up to and including `upTo` (of a projection by course, those of its share of the courses),
   * and answers false, writing nothing, when any of them is not one it is sure of (a schema
   * version or a value it does not take): `apply` is then given that span's events of these
   * types, as it would be without this.
   */
  rebuildInDatabase?: {
    types: ReadonlySet<string>;
    fill(sql: Sql, schema: string, span: { after: Checkpoint; upTo: Checkpoint; share: Share }): Promise<boolean>;
  };
  apply(sql: Sql, schema: string, event: StoredEvent, personal: PersonalAccess, batch: Batch): Promise<void>;
}

/**
 * Personal data for a projection: called as a function, it opens what an event sealed; `seal`,
 * `unseal` and `searchGrams` keep a read model's personal columns sealed, one by one, with the read models' key (opened
 * by views, see @portal/platform/read-models/sealed-columns).
 */
export type PersonalAccess = PersonalDataReader & {
  seal(text: string | null): Promise<Buffer | null>;
  /** Seals a row's texts at once, each as `seal` would (sealTexts: one cipher for them all). */
  sealAll(texts: readonly (string | null)[]): Promise<(Buffer | null)[]>;
  unseal(sealed: Uint8Array | null): Promise<string | null>;
  /** The blind index of a text that is kept sealed (searchGrams), to search it without opening every row. */
  searchGrams(text: string): Promise<number[]>;
};

/**
 * The batch being applied: work registered with `after` runs once per key when the batch's events
 * are applied, still in its transaction (a count recomputed once per batch, not once per event).
 */
export interface Batch {
  after(key: string, work: () => Promise<void>): void;
  /** Filling fresh read models from the whole log in a rebuild: see Projection.afterRebuild. */
  readonly rebuilding: boolean;
  /**
   * Queues a row for `table` (`then`: nothing, ON CONFLICT ... DO NOTHING, or an upsert that sets
   * columns to EXCLUDED values): it is written with the other rows queued for the table, before
   * this projection's next statement of any other kind, so what the projection reads afterwards
   * includes it.
   */
  insert<T extends Table>(schema: string, table: T, row: Partial<StoredRowOf<T>>, then?: string): Promise<void>;
}

/** The event types of the decoders a projection's `apply` uses. */
export const readsOf = (...decoders: { types: ReadonlySet<string> }[]): ReadonlySet<string> =>
  new Set(decoders.flatMap((decoder) => [...decoder.types]));

/**
 * Some of a decoder's types only, for readsOf: those a projection acts on, where it would decode
 * the others only to pass them by (a rebuild gave the outreach every registration, approval and
 * consent of the log to decode and drop). A name the decoder does not know fails at once.
 */
export function someOf(decoder: { types: ReadonlySet<string> }, ...types: string[]): { types: ReadonlySet<string> } {
  for (const type of types) if (!decoder.types.has(type)) throw new Error(`${type} is not one of the decoder's types`);
  return { types: new Set(types) };
}
