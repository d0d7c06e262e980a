import type { StoredEvent } from '@portal/contracts/envelope';
import { EVENT_TUPLE, eventsOfBatch } from '@portal/platform/store/event-store';
import type { Checkpoint } from '@portal/platform/store/port';
import type { Sql } from '@portal/platform/store/sql';

/**
 * A rebuild lane's share of the courses named by events' data (`courseId`, as `courseOf` in
 * apply.ts reads it; none is as ''): those whose hash
 * modulo `of` is `index`, all of them when `of` is 1. The hash is PostgreSQL's own, so the share
 * is the same in every statement that asks for it.
 */
export interface Share {
  of: number;
  index: number;
}
/** Whether an event of es.events is in the share given by the parameters `of` and `index`. */
export const IN_SHARE = (of: string, index: string) =>
  `(${of}::int = 1 OR (hashtext(coalesce(data->>'courseId', '')) & 2147483647) % ${of}::int = ${index}::int)`;

/**
 * The events of `types` in the log after `after` up to and including `upTo`, of a share of the
 * courses, in its order: a span's events that a projection's own statement would not write
 * (Projection.rebuildInDatabase).
 */
export async function readLogRange(
  sql: Sql,
  span: { after: Checkpoint; upTo: Checkpoint; share: Share },
  types: readonly string[],
): Promise<StoredEvent[]> {
  const { after, upTo, share } = span;
  const [row] = await sql.query<{ batch: string | null }>(
    `SELECT json_agg(${EVENT_TUPLE} ORDER BY transaction_id, position)::text AS batch FROM es.events
      WHERE (transaction_id, position) > ($1::xid8, $2::bigint) AND (transaction_id, position) <= ($3::xid8, $4::bigint)
        AND type = ANY($5::text[]) AND ${IN_SHARE('$6', '$7')}`,
    [after.transactionId, after.position, upTo.transactionId, upTo.position, [...types], share.of, share.index],
  );
  return eventsOfBatch(row?.batch ?? null);
}
