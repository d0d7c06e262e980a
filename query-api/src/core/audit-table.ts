import type { Sql } from '@portal/platform/store/sql';
import type { AuditQuery, ScanAttemptView } from '@portal/contracts/views/audit';
import { toScanAttemptView } from '@portal/read-models/attendance';

/**
 * Every scan attempt (accepted, refused with its reason, voided), newest first, filtered in the
 * database, with the names the accounts read model holds (blank once a person's data is erased).
 */
export async function searchAttempts(
  sql: Sql,
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
  const [counted] = await sql.query<{ total: string }>(
    `SELECT count(*)::text AS total FROM rm.scan_attempts s ${filter}`,
    params,
  );
  const page = limit ? ` LIMIT ${limit.pageSize} OFFSET ${(limit.page - 1) * limit.pageSize}` : '';
  const rows = await sql.query<Parameters<typeof toScanAttemptView>[0]>(
    `SELECT s.*, c.topic, nullif(m.full_name, '') AS member_name, nullif(sc.full_name, '') AS scanner_name
       FROM rm.scan_attempts s
       LEFT JOIN rm.courses c ON c.id = s.course_id
       LEFT JOIN rm.accounts m ON m.id = s.member_id
       LEFT JOIN rm.accounts sc ON sc.id = s.scanner_id
       ${filter}
      ORDER BY s.server_time DESC, s.position DESC${page}`,
    params,
  );
  return {
    total: Number(counted!.total),
    attempts: rows.map(toScanAttemptView),
  };
}
