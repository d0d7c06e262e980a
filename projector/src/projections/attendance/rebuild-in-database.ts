import {
  AttendanceScanned,
  AttendanceVoided,
  ScanRefused,
  offlineDecisions,
  refusalReasons,
  scanMethods,
} from '@portal/contracts/attendance/attendance.events';
import type { Checkpoint } from '@portal/platform/store/port';
import { IN_SHARE, type Share } from '../../log-range.ts';
import { type Sql, unlessUniqueViolation } from '@portal/platform/store/sql';
import { attendance, scanAttempts } from '@portal/read-models/attendance';

/**
 * A rebuild's scans, refusals and voids written by one statement a span of the log
 * (Projection.rebuildInDatabase): nine events in ten of a portal's log, which `apply` would have
 * had read out as JSON, decoded, and sent back as rows. The rows are those `apply` writes in a
 * rebuild: an attempt for each event; for each round and member the last scan, voided if a void
 * came after it (a span's rows replace those of earlier spans, and its voids mark them); rows of
 * rounds cancelled and courses deleted are left for recountAll, as `apply` leaves them.
 *
 * The statement takes only events it is sure `apply` would take alike: each type at the schema
 * version written here (SCHEMA_VERSIONS; a new version is upcast by the decoder, which this does
 * not do), every field as its schema wants it, and times as the portal writes them
 * (`Date.toISOString`, a stricter form than the schemas' ISO date-time; their dates are checked
 * by the cast, whose error also hands the span to `apply`). A span holding any other is left
 * whole to `apply`, which decodes it as always (and sets the projection aside on an event it
 * cannot take). Same rows as `apply`: attendance-rebuild.postgres.spec.ts.
 */
export const SCHEMA_VERSIONS = { AttendanceScanned: 1, ScanRefused: 1, AttendanceVoided: 1 } as const;

export const typesFilledInDatabase: ReadonlySet<string> = new Set([
  AttendanceScanned.type,
  ScanRefused.type,
  AttendanceVoided.type,
]);

const given = (key: string) => `data ? '${key}'`;
const isNull = (key: string) => `jsonb_typeof(data->'${key}') = 'null'`;

type Wanted = 'string' | 'boolean' | 'string or null' | readonly string[];
/**
 * The fields an event must have, each of its JSON type or one of the texts listed, as one strict
 * JSON path (a missing field or another type makes it false or unknown, never true): a third of
 * the cost of a function call for each.
 */
const shape = (fields: Record<string, Wanted>) => {
  const typeOf = (key: string) => `$."${key}".type()`;
  const wanted = Object.entries(fields).map(([key, want]) =>
    want === 'string or null'
      ? `(${typeOf(key)} == "string" || ${typeOf(key)} == "null")`
      : typeof want === 'string'
        ? `${typeOf(key)} == "${want}"`
        : `(${typeOf(key)} == "string" && (${want.map((text) => `$."${key}" == ${JSON.stringify(text)}`).join(' || ')}))`,
  );
  const path = `strict $.type() == "object" && ${wanted.join(' && ')}`;
  if (path.includes("'")) throw new Error('a quote in a JSON path of the attendance statement');
  return `jsonb_path_match(data, '${path}', '{}', true)`;
};
/** The shape of a time as Date.toISOString writes it (a JSON string, then: a number has no T). */
const TIME_SHAPE = `'____-__-__T__:__:__.___Z'`;
const RENDERED = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
/** A time's text read as a time only if it has the shape (the middle query): a text of another fails no cast. */
const timeOf = (text: string) => `CASE WHEN ${text} LIKE ${TIME_SHAPE} THEN ${text}::timestamptz END`;
/**
 * Times exactly as Date.toISOString writes them: of its shape, and the very text PostgreSQL writes
 * back for the time it read in it, so digits where it has digits (the cast alone takes a space for
 * one), hours below 24 and seconds below 60 (it takes 24:00 and :60, moving on to the next day or
 * minute), and a date that exists. A time whose cast fails fails the statement, and `apply` is
 * given its span. Cheaper than checking the shape's characters one by one (translate) and the
 * hours and seconds apart (docs/performance.md, machine AC). Each name is a time the middle query
 * read (`device_time`) beside its text (`device_text`).
 */
const times = (...names: string[]) =>
  `(${names.map((name) => `to_char(${name}_time AT TIME ZONE 'UTC', ${RENDERED}) = ${name}_text`).join(' AND ')})`;
/** The same for a time only checked, never written. */
const checkedTime = (text: string) => `(to_char((${timeOf(text)}) AT TIME ZONE 'UTC', ${RENDERED}) = ${text})`;
/** z.number().int().min(0), nullable and optional: a safe integer from 0. */
const distance = `(NOT ${given('distanceMetres')} OR ${isNull('distanceMetres')} OR (jsonb_typeof(data->'distanceMetres') = 'number'
    AND (data->>'distanceMetres')::numeric BETWEEN 0 AND 9007199254740991
    AND (data->>'distanceMetres')::numeric = trunc((data->>'distanceMetres')::numeric)))`;
/** An offline decision: optional, nullable, one of those listed. */
const offlineDecision = `(NOT ${given('offlineDecision')} OR ${isNull('offlineDecision')}
    OR (jsonb_typeof(data->'offlineDecision') = 'string' AND offline_decision = ANY($5::text[])))`;

const ATTEMPT = {
  courseId: 'string',
  roundId: 'string',
  scannerId: 'string',
  deviceId: 'string',
  method: scanMethods,
  lateUploaded: 'boolean',
} as const;
const SCANNED = [
  shape({ ...ATTEMPT, memberId: 'string', late: 'boolean', walkIn: 'boolean' }),
  times('device', 'server', 'scanned'),
  offlineDecision,
  distance,
].join(' AND ');
const REFUSED = [
  shape({ ...ATTEMPT, memberId: 'string or null', reason: refusalReasons, firstScannedAt: 'string or null' }),
  times('device', 'server'),
  `(${isNull('firstScannedAt')} OR ${checkedTime(`(data->>'firstScannedAt')`)})`,
  offlineDecision,
  distance,
].join(' AND ');
const VOIDED = [
  shape({ courseId: 'string', roundId: 'string', memberId: 'string', reason: 'string', voidedBy: 'string' }),
  times('server'),
].join(' AND ');

/**
 * One statement a span: each event's fields are taken out of its JSON once (the inner query) and
 * its times read once (the middle one), each query kept apart from the one above it by OFFSET 0,
 * which the planner would otherwise flatten, doing the work again wherever a field is used; and
 * only those fields are carried on: a span's events, held and sorted as whole JSON documents, had
 * cost the statement a copy of each at every step.
 */
const fillStatement = (schema: string, upsert: string) => {
  const attempts = `${schema}.${scanAttempts.storedAs}`;
  const present = `${schema}.${attendance.storedAs}`;
  return `
WITH span AS MATERIALIZED (
  SELECT tx, position, type, round_id, member_id, course_id, scanner_id, device_id, method, reason, device_time,
         server_time, scanned_time, late_uploaded, offline_decision, late, walk_in,
         CASE type
           WHEN 'AttendanceScanned' THEN schema_version = ${SCHEMA_VERSIONS.AttendanceScanned} AND ${SCANNED}
           WHEN 'ScanRefused' THEN schema_version = ${SCHEMA_VERSIONS.ScanRefused} AND ${REFUSED}
           ELSE schema_version = ${SCHEMA_VERSIONS.AttendanceVoided} AND ${VOIDED} END AS sure
    FROM (
      SELECT *, ${timeOf('device_text')} AS device_time, ${timeOf('server_text')} AS server_time,
             ${timeOf('scanned_text')} AS scanned_time
        FROM (
          -- Only the fields of each type's schema (the decoder drops any other a stored event has);
          -- a void's voider and time stand where a scan's scanner and server time do.
          SELECT transaction_id AS tx, position, type, schema_version, data,
                 (data->>'roundId') COLLATE "C" AS round_id, (data->>'memberId') COLLATE "C" AS member_id,
                 data->>'courseId' AS course_id,
                 CASE WHEN type = 'AttendanceVoided' THEN data->>'voidedBy' ELSE data->>'scannerId' END AS scanner_id,
                 CASE WHEN type <> 'AttendanceVoided' THEN data->>'deviceId' END AS device_id,
                 CASE WHEN type <> 'AttendanceVoided' THEN data->>'method' END AS method,
                 CASE WHEN type <> 'AttendanceScanned' THEN data->>'reason' END AS reason,
                 CASE WHEN type <> 'AttendanceVoided' THEN data->>'deviceTime' END AS device_text,
                 CASE WHEN type = 'AttendanceVoided' THEN data->>'voidedAt' ELSE data->>'serverTime' END AS server_text,
                 CASE WHEN type = 'AttendanceScanned' THEN data->>'scannedAt' END AS scanned_text,
                 CASE WHEN type <> 'AttendanceVoided' THEN data->>'lateUploaded' END AS late_uploaded,
                 CASE WHEN type <> 'AttendanceVoided' THEN data->>'offlineDecision' END AS offline_decision,
                 CASE WHEN type = 'AttendanceScanned' THEN data->>'late' END AS late,
                 CASE WHEN type = 'AttendanceScanned' THEN data->>'walkIn' END AS walk_in
            FROM es.events
           WHERE (transaction_id, position) > ($1::xid8, $2::bigint) AND (transaction_id, position) <= ($3::xid8, $4::bigint)
             AND type IN ('AttendanceScanned', 'ScanRefused', 'AttendanceVoided')
             AND ${IN_SHARE('$6', '$7')}
          OFFSET 0) fields
      OFFSET 0) timed),
unsure AS (SELECT count(*) FILTER (WHERE sure IS NOT TRUE) AS n FROM span),
attempted AS (
  INSERT INTO ${attempts} (position, course_id, round_id, member_id, scanner_id, device_id, method, outcome, reason,
                           device_time, server_time, late_uploaded, offline_decision)
  SELECT position, course_id, round_id, member_id, scanner_id, device_id, method,
         CASE type WHEN 'AttendanceScanned' THEN 'accepted' WHEN 'ScanRefused' THEN 'refused' ELSE 'voided' END,
         reason, device_time, server_time,
         CASE WHEN type = 'AttendanceVoided' THEN false ELSE late_uploaded::boolean END,
         offline_decision
    FROM span WHERE (SELECT n FROM unsure) = 0),
-- Each round's and member's scans and voids, latest first: what came last.
keyed AS (
  SELECT round_id, member_id, type, tx, position, course_id, scanned_time, scanner_id, method, late, walk_in,
         first_value(type) OVER latest AS last_type, first_value(server_time) OVER latest AS last_voided_at
    FROM span WHERE (SELECT n FROM unsure) = 0 AND type IN ('AttendanceScanned', 'AttendanceVoided')
  WINDOW latest AS (PARTITION BY round_id, member_id ORDER BY tx DESC, position DESC)),
scanned AS (
  -- The last scan, voided when a void came after it (the last of them).
  INSERT INTO ${present} (round_id, member_id, course_id, scanned_at, scanner_id, method, late, walk_in, voided_at)
  SELECT DISTINCT ON (round_id, member_id) round_id, member_id, course_id, scanned_time,
         scanner_id, method, late::boolean, walk_in::boolean,
         CASE WHEN last_type = 'AttendanceVoided' THEN last_voided_at END
    FROM keyed WHERE type = 'AttendanceScanned'
   ORDER BY round_id, member_id, tx DESC, position DESC
  ${upsert}),
voided AS (
  -- Voids of rows of earlier spans, the last of each round's and member's (the span's own scans are
  -- voided above): the keys the span did not scan, so the insert and this never touch one row. Read
  -- from the span's few voids, not from \`keyed\`, which is then read once and not held: the insert
  -- takes its rows in the order its window sorted them (docs/performance.md, machine AL). A sure
  -- span's scans all have both keys, so NOT IN meets no null.
  UPDATE ${present} a SET voided_at = v.voided_at
    FROM (SELECT DISTINCT ON (round_id, member_id) round_id, member_id, server_time AS voided_at
            FROM span
           WHERE (SELECT n FROM unsure) = 0 AND type = 'AttendanceVoided'
             AND (round_id, member_id) NOT IN (SELECT round_id, member_id FROM span WHERE type = 'AttendanceScanned')
           ORDER BY round_id, member_id, tx DESC, position DESC) v
   WHERE a.round_id = v.round_id AND a.member_id = v.member_id)
SELECT n::int AS unsure FROM unsure`;
};

/**
 * Writes the span's attempts and attendance; false, writing nothing, when it holds an event it is
 * not sure of. The attendance's rows go in as plain inserts: PostgreSQL carries out `upsert` (ON
 * CONFLICT ... DO UPDATE) as a speculative insertion, which cost the statement an eighth more,
 * conflict or not (docs/performance.md, machine AE), and a span's row meets one already there
 * only when a member is scanned again after a void in a later span than the first scan. Then the
 * plain insert fails on the key: the span is written again with `upsert` (unlessUniqueViolation).
 */
export async function fillAttendanceInDatabase(
  sql: Sql,
  schema: string,
  upsert: string,
  span: { after: Checkpoint; upTo: Checkpoint; share: Share },
): Promise<boolean> {
  const { after, upTo, share } = span;
  const params = [
    after.transactionId,
    after.position,
    upTo.transactionId,
    upTo.position,
    [...offlineDecisions],
    share.of,
    share.index,
  ];
  const written = async (then: string) =>
    (await sql.query<{ unsure: number }>(fillStatement(schema, then), params))[0]?.unsure === 0;
  return unlessUniqueViolation(
    sql,
    'attendance_span',
    () => written(''),
    () => written(upsert),
  );
}
