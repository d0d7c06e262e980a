import { z } from 'zod';

/** A certificate as its holder and the course's staff see it (issue 23). */
export const CertificateView = z.object({
  certificateId: z.string(),
  courseId: z.string(),
  courseTopic: z.string(),
  memberId: z.string(),
  /** Null once the member's data is erased. */
  memberName: z.string().nullable(),
  attendedRounds: z.number(),
  heldRounds: z.number(),
  hours: z.number(),
  issuedAt: z.string(),
  revokedAt: z.string().nullable(),
  revokedReason: z.string().nullable(),
});
export type CertificateView = z.infer<typeof CertificateView>;

/** GET /api/certificates: the signed-in member's own. */
export const MyCertificates = z.object({ success: z.literal(true), certificates: z.array(CertificateView) });

/**
 * GET /api/admin/courses/{id}/certificates: the course's rule, whether its last round has
 * ended, when its certificates were last decided, and every certificate issued.
 */
export const CourseCertificates = z.object({
  success: z.literal(true),
  percent: z.number(),
  lastRoundEndsAt: z.string().nullable(),
  /** The last round has ended (by the server's clock): certificates may be issued. */
  ended: z.boolean(),
  checkedAt: z.string().nullable(),
  certificates: z.array(CertificateView),
});
export type CourseCertificates = z.infer<typeof CourseCertificates>;

/**
 * GET /api/certificates/{id}/verification, public: what anyone holding the paper may learn.
 * `erased`: a certificate was issued under this number, to a person whose data has been erased.
 */
export const CertificateVerification = CertificateView.omit({ courseId: true, memberId: true }).extend({
  success: z.literal(true),
  status: z.enum(['valid', 'revoked', 'erased']),
  issuer: z.string().nullable(),
});
export type CertificateVerification = z.infer<typeof CertificateVerification>;
