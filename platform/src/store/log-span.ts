import type { StoredEvent } from '@portal/contracts/envelope';
import { EVENT_TUPLE, eventsOfBatch } from './event-store.ts';
import type { Checkpoint } from './port.ts';
import type { Sql } from './sql.ts';

/** A stretch of the log read by readLogSpan. */
export interface LogSpan {
  /** The span's events but those of the types skipped, in the log's order. */
  events: StoredEvent[];
  /** How many events the span holds, those skipped included. */
  spanned: number;
  /** The span's last event, skipped or not (null: no event after `after`). */
  end: Checkpoint | null;
}

/**
 * The log after `after`, in its order and none behind a transaction still running (as
 * readAllAfter), a span at a time: at most `span` events, and at most `most` of the types not
 * skipped; those come back whole, the skipped ones only counted. A rebuild reads the log so when
 * a projection writes some types in the database itself (Projection.rebuildInDatabase): the
 * scans, nine events in ten of a portal's log, are then neither turned into JSON nor parsed.
 */
export async function readLogSpan(
  sql: Sql,
  after: Checkpoint,
  limits: { span: number; most: number; skipping: readonly string[] },
): Promise<LogSpan> {
  const [row] = await sql.query<{ batch: string | null; spanned: number; last: string | null }>(READ_LOG_SPAN, [
    after.transactionId,
    after.position,
    limits.span,
    [...limits.skipping],
    limits.most,
  ]);
  const last = row?.last ? (JSON.parse(row.last) as [string, number]) : null;
  return {
    events: eventsOfBatch(row?.batch ?? null),
    spanned: Number(row?.spanned ?? 0),
    end: last && { transactionId: last[0], position: last[1] },
  };
}

/**
 * readLogSpan's statement: $1 and $2 the checkpoint, $3 the span, $4 the types skipped, $5 the
 * most events not skipped. The span is cut after its $5-th event not skipped (what is taken is a
 * start of it, so its count is its last row's number); those are read again by their key for
 * their whole rows, so that the span's rows held for the count are small.
 */
const READ_LOG_SPAN = `
WITH span AS (
  SELECT position, transaction_id, NOT (type = ANY($4::text[])) AS kept
    FROM es.events
   WHERE (transaction_id, position) > ($1::xid8, $2::bigint)
     AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
   ORDER BY transaction_id, position
   LIMIT $3),
counted AS (
  SELECT position, transaction_id, kept, row_number() OVER in_order AS n,
         count(*) FILTER (WHERE kept) OVER in_order - kept::int AS kept_before
    FROM span WINDOW in_order AS (ORDER BY transaction_id, position)),
taken AS (SELECT position, transaction_id, kept, n FROM counted WHERE kept_before < $5),
spanned AS (SELECT max(n) AS n FROM taken)
SELECT (SELECT json_agg(${EVENT_TUPLE} ORDER BY transaction_id, position)
          FROM es.events WHERE position IN (SELECT position FROM taken WHERE kept))::text AS batch,
       (SELECT n FROM spanned)::int AS spanned,
       -- The last by its number in the span: sorting the span's rows by (xid8, bigint) cost a quarter of the read.
       (SELECT json_build_array(transaction_id::text, position) FROM taken WHERE n = (SELECT n FROM spanned))::text AS last`;
