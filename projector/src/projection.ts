import type { StoredEvent } from '@portal/events/envelope';
import type { PersonalDataReader } from '@portal/events/privacy/personal-data';
import type { Sql } from '@portal/events/store/sql';

/**
 * A read model: its tables (created in `schema`, so a rebuild can fill fresh ones beside the live
 * ones), and how one event changes them. `apply` runs inside the projector's batch transaction,
 * which also moves the checkpoint, so an event is applied exactly once. `personal` opens the
 * personal data sealed in an event (null once the person's key is erased).
 */
export interface Projection {
  name: string;
  /** Raised whenever the tables or what is written in them change: read models built by another version are rebuilt. */
  version: number;
  createTables(sql: Sql, schema: string): Promise<void>;
  apply(sql: Sql, schema: string, event: StoredEvent, personal: PersonalDataReader, batch: Batch): Promise<void>;
}

/**
 * The batch being applied: work registered with `after` runs once per key when the batch's events
 * are applied, still in its transaction (a count recomputed once per batch, not once per event).
 */
export interface Batch {
  after(key: string, work: () => Promise<void>): void;
}
