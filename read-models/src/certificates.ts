import { column, defineTable, identifier, type RowOf } from '@portal/platform/read-models/table';

/**
 * Certificates of completion (issue 23): every certificate issued, revoked ones included, and
 * each course's completion rule and when its certificates were last decided. The holder's name is
 * not here: it is read from the accounts read model, so erasing them un-names the certificate.
 * Written by the projector's certificates projection; read by query-api (the member's list, the
 * course's list, the PDF and the public verification page) and by command-api's sweep, to find
 * the courses whose certificates are due.
 */
export const certificates = defineTable(
  'certificates',
  {
    certificate_id: identifier('PRIMARY KEY'),
    course_id: identifier('NOT NULL'),
    member_id: identifier('NOT NULL'),
    course_topic: column<string>('text NOT NULL'),
    issuer_id: identifier('NOT NULL'),
    attended_rounds: column<number>('integer NOT NULL'),
    held_rounds: column<number>('integer NOT NULL'),
    hours: column<number>('double precision NOT NULL'),
    issued_at: column<Date>('timestamptz NOT NULL'),
    revoked_at: column<Date | null>('timestamptz'),
    revoked_reason: column<string | null>('text'),
  },
  {
    indexes: {
      certificates_member: 'member_id, issued_at',
      certificates_course: { on: 'course_id, member_id', projectorReads: true },
    },
  },
);
export type CertificateRow = RowOf<typeof certificates>;

export const courseCompletion = defineTable(
  'course_completion',
  {
    course_id: identifier('PRIMARY KEY'),
    percent: column<number | null>('integer'),
    checked_at: column<Date | null>('timestamptz'),
  },
  {},
);

export const certificateTables = [certificates, courseCompletion];
