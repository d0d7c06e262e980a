import { decodeCertificateEvent } from '@portal/contracts/certificates/certificate.events';
import { createTable, insertRow } from '@portal/platform/read-models/table';
import { certificateTables, certificates, courseCompletion } from '@portal/read-models/certificates';
import type { Projection } from '../../projection.ts';

/**
 * The certificates: each one issued, and revoked with its reason; each course's completion rule
 * and when its certificates were last decided. Certificates outlive their course: a deleted
 * course's certificates still say what was completed.
 */
export const certificatesProjection: Projection = {
  name: 'certificates',
  reads: decodeCertificateEvent.types,
  // 2: identifiers compared byte by byte (COLLATE "C", read-models/table.ts identifier).
  version: 2,
  async createTables(sql, schema) {
    for (const table of certificateTables) await createTable(sql, schema, table);
  },
  async apply(sql, schema, stored) {
    const event = decodeCertificateEvent(stored);
    if (!event) return;
    switch (event.type) {
      case 'CertificateIssued': {
        const d = event.data;
        const row = {
          certificate_id: d.certificateId,
          course_id: d.courseId,
          member_id: d.memberId,
          course_topic: d.courseTopic,
          issuer_id: d.issuerId,
          attended_rounds: d.attendedRounds,
          held_rounds: d.heldRounds,
          hours: d.hours,
          issued_at: d.issuedAt,
        };
        await sql.query(...insertRow(schema, certificates, row, 'ON CONFLICT (certificate_id) DO NOTHING'));
        return;
      }
      case 'CertificateRevoked':
        await sql.query(
          `UPDATE ${schema}.certificates SET revoked_at = $2, revoked_reason = $3 WHERE certificate_id = $1`,
          [event.data.certificateId, event.data.revokedAt, event.data.reason],
        );
        return;
      case 'CompletionRuleSet': {
        const row = { course_id: event.data.courseId, percent: event.data.percent };
        await sql.query(
          ...insertRow(
            schema,
            courseCompletion,
            row,
            'ON CONFLICT (course_id) DO UPDATE SET percent = EXCLUDED.percent',
          ),
        );
        return;
      }
      case 'CompletionChecked': {
        const row = { course_id: event.data.courseId, checked_at: event.data.checkedAt };
        await sql.query(
          ...insertRow(
            schema,
            courseCompletion,
            row,
            'ON CONFLICT (course_id) DO UPDATE SET checked_at = EXCLUDED.checked_at',
          ),
        );
        return;
      }
    }
  },
};
