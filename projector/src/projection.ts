import type { StoredEvent } from '@portal/events/envelope';
import type { Sql } from '@portal/events/store/sql';

/**
 * A read model: its tables (created in `schema`, so a rebuild can fill fresh ones beside the live
 * ones), and how one event changes them. `apply` runs inside the projector's batch transaction,
 * which also moves the checkpoint, so an event is applied exactly once.
 */
export interface Projection {
  name: string;
  createTables(sql: Sql, schema: string): Promise<void>;
  apply(sql: Sql, schema: string, event: StoredEvent): Promise<void>;
}
