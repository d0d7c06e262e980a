import type { SqlDatabase } from '@portal/platform/store/sql';
import { openTexts, unlockedKey } from '@portal/platform/read-models/sealed-columns';
import type { AuditQuery, ScanAttemptView } from '@portal/contracts/views/audit';
import { toScanAttemptView } from '@portal/read-models/attendance';

/**
 * Every scan attempt (accepted, refused with its reason, voided), newest first, filtered in the
 * database, with the names the accounts read model holds (blank once a person's data is erased).
 */
export async function searchAttempts(
  sql: SqlDatabase,
  query: AuditQuery,
  limit: { page: number; pageSize: number } | null,
): Promise<{ attempts: ScanAttemptView[]; total: number }> {
  const params: unknown[] = [];
  const conditions: string[] = [];
  const where = (column: string, value: unknown, operator = '=') => {
    if (value === undefined) return;
    params.push(value);
    conditions.push(`${column} ${operator} $${params.length}`);
  };
  where('s.course_id', query.courseId || undefined);
  where('s.round_id', query.roundId || undefined);
  where('s.member_id', query.memberId || undefined);
  where('s.scanner_id', query.scannerId || undefined);
  where('s.outcome', query.outcome);
  where('s.server_time', query.from, '>=');
  where('s.server_time', query.to, '<');
  const filter = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  // Filtered by course, round and outcome only (or not at all), the total is a sum of the kept
  // counts per round and outcome; by anything else, a count over the attempts' indexes.
  const counts = !query.memberId && !query.scannerId && !query.from && !query.to;
  const [counted] = await sql.query<{ total: string }>(
    counts
      ? `SELECT coalesce(sum(n), 0)::text AS total FROM rm.scan_attempt_counts s ${filter}`
      : `SELECT count(*)::text AS total FROM rm.scan_attempts s ${filter}`,
    params,
  );
  const page = limit ? ` LIMIT ${limit.pageSize} OFFSET ${(limit.page - 1) * limit.pageSize}` : '';
  // The names read sealed and opened here (cheaper than pgcrypto for a page's few dozen).
  const rows = await sql.query<
    Omit<Parameters<typeof toScanAttemptView>[0], 'member_name' | 'scanner_name'> & {
      member_sealed: Uint8Array | null;
      scanner_sealed: Uint8Array | null;
    }
  >(
    // The page first, then its names and topics: rows skipped by the offset are not joined.
    `SELECT s.*, c.topic, m.full_name AS member_sealed, sc.full_name AS scanner_sealed
       FROM (SELECT * FROM rm.scan_attempts s ${filter} ORDER BY s.server_time DESC, s.position DESC${page}) AS s
       LEFT JOIN rm.courses c ON c.id = s.course_id
       LEFT JOIN rm.accounts_sealed m ON m.id = s.member_id
       LEFT JOIN rm.accounts_sealed sc ON sc.id = s.scanner_id
      ORDER BY s.server_time DESC, s.position DESC`,
    params,
  );
  // Every name of the page opened at once: member's and scanner's, row after row.
  const names = openTexts(
    unlockedKey(sql),
    rows.flatMap((row) => [row.member_sealed, row.scanner_sealed]),
  );
  return {
    total: Number(counted!.total),
    attempts: rows.map(({ member_sealed: _member, scanner_sealed: _scanner, ...row }, i) =>
      toScanAttemptView({ ...row, member_name: names[2 * i] || null, scanner_name: names[2 * i + 1] || null }),
    ),
  };
}
