import type { CertificateVerification, CertificateView } from '@portal/contracts/views/certificate';
import type { Sql } from '@portal/platform/store/sql';
import type { CertificateRow } from '@portal/read-models/certificates';

/** A certificate with its holder's name and its issuer's, read as they are now (erased: null). */
export type NamedCertificate = CertificateRow & {
  member_name: string | null;
  member_erased: boolean;
  issuer_name: string | null;
};

const named = `SELECT c.*,
         coalesce(nullif(m.full_name, ''), m.username) AS member_name,
         coalesce(m.status = 'erased', true) AS member_erased,
         coalesce(nullif(i.company ->> 'companyName', ''), nullif(i.full_name, ''), i.username) AS issuer_name
    FROM rm.certificates c
    LEFT JOIN rm.accounts m ON m.id = c.member_id
    LEFT JOIN rm.accounts i ON i.id = c.issuer_id`;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export async function certificateById(sql: Sql, certificateId: string): Promise<NamedCertificate | null> {
  const [row] = await sql.query<NamedCertificate>(`${named} WHERE c.certificate_id = $1`, [certificateId]);
  return row ?? null;
}

export async function certificatesOfMember(sql: Sql, memberId: string): Promise<NamedCertificate[]> {
  return sql.query<NamedCertificate>(`${named} WHERE c.member_id = $1 ORDER BY c.issued_at DESC, c.certificate_id`, [
    memberId,
  ]);
}

export async function certificatesOfCourse(sql: Sql, courseId: string): Promise<NamedCertificate[]> {
  return sql.query<NamedCertificate>(`${named} WHERE c.course_id = $1 ORDER BY member_name, c.certificate_id`, [
    courseId,
  ]);
}

export const toCertificateView = (row: NamedCertificate): CertificateView => ({
  certificateId: row.certificate_id,
  courseId: row.course_id,
  courseTopic: row.course_topic,
  memberId: row.member_id,
  memberName: row.member_erased ? null : row.member_name,
  attendedRounds: Number(row.attended_rounds),
  heldRounds: Number(row.held_rounds),
  hours: Number(row.hours),
  issuedAt: iso(row.issued_at)!,
  revokedAt: iso(row.revoked_at),
  revokedReason: row.revoked_reason,
});

/** What the public page says: revoked wins over erased (the reason still stands); erased names nobody. */
export function toVerification(row: NamedCertificate): Omit<CertificateVerification, 'success'> {
  const { courseId: _course, memberId: _member, ...view } = toCertificateView(row);
  const status = row.revoked_at ? 'revoked' : row.member_erased ? 'erased' : 'valid';
  return { ...view, status, issuer: row.issuer_name };
}
