/**
 * Whether the streams an append's decision was made on (its "g", AppendOptions.decidedOn) are
 * still at the revisions the decision took them to be at: null when they are (or there are none),
 * 'moved' when one moved on, 'behind' when one is behind (the log was restored). `$item` is the
 * append's JSON. Read as the append is written, in its statement's snapshot; each stream by its
 * key (a join let the generic plan hash the whole table).
 */
const GUARD = `(
  SELECT CASE WHEN bool_or(g.now < g.taken) THEN 'behind' WHEN bool_or(g.now <> g.taken) THEN 'moved' END
    FROM (SELECT (d.at->>1)::bigint AS taken,
                 coalesce((SELECT t.revision FROM es.streams t WHERE t.stream_id = d.at->>0), -1) AS now
            FROM jsonb_array_elements($item->'g') AS d(at)) g)`;

/**
 * `es.append_batch(batch jsonb)`: many appends, each to its own stream with its own expected
 * revision and idempotency key, in the one transaction of a single statement (group commit; see
 * ./append-batch.ts). Each append is all or nothing and answers on its own row: `ok` (appended),
 * `wrong` (expected revision not met: nothing of it written, its key released), `reused` (its
 * key was used for another request), `replay` (its key's first result), or `moved` or `behind`
 * (GUARD: a stream the decision was made on moved, or is behind: nothing written, its key
 * released). The checks and writes are those of `appendInTransaction` (./event-store.ts), in
 * PL/pgSQL so the batch is one round trip.
 *
 * Input, in the order the appends are to be applied:
 *   [{ "s": stream id, "e": expected revision (-1 no stream, null any), "k": key, "f": fingerprint,
 *      "v": [{ "t": type, "n": schema version, "d": data, "m": metadata }],
 *      "g": [[stream id, revision], ...] (optional: the streams the decision was made on) }]
 */
export const APPEND_BATCH_FUNCTION = `
CREATE OR REPLACE FUNCTION es.append_batch(batch jsonb)
RETURNS TABLE (idx integer, status text, next_revision bigint, last_position bigint, actual bigint, replay jsonb)
LANGUAGE plpgsql AS $append_batch$
DECLARE
  item jsonb;
  sid text;
  expected bigint;
  ikey text;
  claimed boolean;
  earlier_fingerprint text;
  earlier_result jsonb;
  cur bigint;
  n integer;
  pos bigint;
BEGIN
  FOR item, idx IN SELECT x.value, x.ord - 1 FROM jsonb_array_elements(batch) WITH ORDINALITY AS x(value, ord)
                  ORDER BY x.ord LOOP
    sid := item->>'s';
    expected := (item->>'e')::bigint;
    ikey := item->>'k';
    n := jsonb_array_length(item->'v');
    next_revision := NULL; last_position := NULL; actual := NULL; replay := NULL;
    claimed := false;

    IF ikey IS NOT NULL THEN
      INSERT INTO es.idempotency (key, fingerprint) VALUES (ikey, item->>'f') ON CONFLICT (key) DO NOTHING;
      IF FOUND THEN
        claimed := true;
      ELSE
        SELECT fingerprint, result INTO earlier_fingerprint, earlier_result FROM es.idempotency WHERE key = ikey;
        IF earlier_fingerprint <> item->>'f' THEN
          status := 'reused'; RETURN NEXT; CONTINUE;
        END IF;
        IF earlier_result IS NOT NULL THEN
          status := 'replay'; replay := earlier_result; RETURN NEXT; CONTINUE;
        END IF;
      END IF;
    END IF;

    status := ${GUARD.replace('$item', 'item')};
    IF status IS NOT NULL THEN
      -- A stream the decision was made on moved: nothing written, the key released.
      IF claimed THEN DELETE FROM es.idempotency WHERE key = ikey; END IF;
      RETURN NEXT; CONTINUE;
    END IF;

    IF expected = -1 THEN
      -- A new stream: creating its row is the check, and the lock.
      INSERT INTO es.streams (stream_id, revision) VALUES (sid, n - 1) ON CONFLICT (stream_id) DO NOTHING;
      cur := CASE WHEN FOUND THEN -1 ELSE NULL END;
    ELSE
      SELECT revision INTO cur FROM es.streams WHERE stream_id = sid FOR UPDATE;
      IF NOT FOUND THEN
        cur := -1;
      END IF;
      IF expected IS NOT NULL AND expected <> cur THEN
        cur := NULL;
      ELSIF cur = -1 THEN
        INSERT INTO es.streams (stream_id, revision) VALUES (sid, n - 1) ON CONFLICT (stream_id) DO NOTHING;
        IF NOT FOUND THEN cur := NULL; END IF;
      ELSE
        UPDATE es.streams SET revision = cur + n WHERE stream_id = sid;
      END IF;
    END IF;

    IF cur IS NULL THEN
      SELECT revision INTO actual FROM es.streams WHERE stream_id = sid;
      actual := coalesce(actual, -1);
      IF claimed THEN DELETE FROM es.idempotency WHERE key = ikey; END IF;
      status := 'wrong'; RETURN NEXT; CONTINUE;
    END IF;

    WITH inserted AS (
      INSERT INTO es.events (stream_id, stream_revision, type, schema_version, data, metadata)
      SELECT sid, cur + e.ord, e.value->>'t', (e.value->>'n')::integer, e.value->'d', coalesce(e.value->'m', '{}')
        FROM jsonb_array_elements(item->'v') WITH ORDINALITY AS e(value, ord)
       ORDER BY e.ord
      RETURNING position
    )
    SELECT max(position) INTO pos FROM inserted;

    next_revision := cur + n;
    last_position := pos;
    IF ikey IS NOT NULL THEN
      UPDATE es.idempotency
         SET result = jsonb_build_object('streamId', sid, 'nextRevision', next_revision, 'position', pos, 'replayed', false)
       WHERE key = ikey;
    END IF;
    status := 'ok'; RETURN NEXT;
  END LOOP;
END
$append_batch$`;

/**
 * Appends without an idempotency key, as one statement: its parts all see the same snapshot, so
 * the batch never names one stream twice (./append-batch.ts sees to it). A stream's revision
 * moves only if its expectation holds: a new stream is created (its row is the lock; a concurrent
 * creator makes it wait, then it does nothing), an expected revision is compared and set by one
 * UPDATE (rechecked on the newest row after waiting for a concurrent writer), 'any' creates or
 * moves on. Events are written only for the streams that moved. Answers, per input in order, the
 * stream's next revision and last position, or nulls when the expectation did not hold; and
 * `guard` (GUARD), when a stream the decision was made on moved (then nothing of it is written).
 *
 * Input: [{ "s": stream id, "e": expected revision (-1 no stream, null any),
 *           "v": [{ "t": type, "n": schema version, "d": data, "m": metadata }],
 *           "g": [[stream id, revision], ...] (optional: the streams the decision was made on) }]
 */
export const APPEND_UNKEYED = `
WITH input AS (
  SELECT x.ord, x.value->>'s' AS s, (x.value->>'e')::bigint AS e, jsonb_array_length(x.value->'v') AS n, x.value->'v' AS v,
         ${GUARD.replace('$item', 'x.value')} AS guard
    FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(value, ord)),
created AS (
  INSERT INTO es.streams (stream_id, revision)
  SELECT s, n - 1 FROM input WHERE e = -1 AND guard IS NULL ORDER BY s
  ON CONFLICT (stream_id) DO NOTHING
  RETURNING stream_id, -1::bigint AS start),
moved AS (
  UPDATE es.streams t SET revision = t.revision + input.n FROM input
   WHERE input.e >= 0 AND input.guard IS NULL AND t.stream_id = input.s AND t.revision = input.e
  RETURNING t.stream_id, input.e AS start),
anyhow AS (
  INSERT INTO es.streams (stream_id, revision)
  SELECT s, n - 1 FROM input WHERE e IS NULL AND guard IS NULL ORDER BY s
  ON CONFLICT (stream_id) DO UPDATE SET revision = es.streams.revision + excluded.revision + 1
  RETURNING stream_id, revision),
started AS (
  SELECT stream_id, start FROM created
  UNION ALL SELECT stream_id, start FROM moved
  UNION ALL SELECT anyhow.stream_id, anyhow.revision - input.n FROM anyhow JOIN input ON input.s = anyhow.stream_id),
inserted AS (
  INSERT INTO es.events (stream_id, stream_revision, type, schema_version, data, metadata)
  SELECT input.s, started.start + e.ord, e.value->>'t', (e.value->>'n')::integer, e.value->'d', coalesce(e.value->'m', '{}')
    FROM input
    JOIN started ON started.stream_id = input.s
   CROSS JOIN LATERAL jsonb_array_elements(input.v) WITH ORDINALITY AS e(value, ord)
   ORDER BY input.ord, e.ord
  RETURNING stream_id, position)
SELECT (input.ord - 1)::integer AS idx, (started.start + input.n)::text AS next_revision,
       (SELECT max(inserted.position) FROM inserted WHERE inserted.stream_id = input.s)::text AS last_position,
       input.guard
  FROM input LEFT JOIN started ON started.stream_id = input.s
 ORDER BY input.ord`;
