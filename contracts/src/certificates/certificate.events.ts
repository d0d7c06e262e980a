import { z } from 'zod';
import { createDecoder, defineEvent } from '../catalogue.ts';

/**
 * Certificates of completion (issue 23). A member's certificate for a course lives in its own
 * stream `certificate-<courseId>-<memberId>`, which may hold one issue: two issuers deciding at
 * the same instant cannot give a member two certificates. A course's completion rule and when
 * its certificates were last decided live in `completion-<courseId>`.
 */
export const certificateStream = (courseId: string, memberId: string) => `certificate-${courseId}-${memberId}`;
export const completionStream = (courseId: string) => `completion-${courseId}`;
export const completionCourseOf = (streamId: string) => streamId.slice('completion-'.length);

const at = z.iso.datetime({ offset: true });

/** 128 random bits, base64url: the certificate's public number, in its QR code and on its page. */
export const CertificateId = z.string().regex(/^[A-Za-z0-9_-]{22}$/);

/** The share of the course's held rounds a member must attend, in percent, unless the course sets its own. */
export const DEFAULT_COMPLETION_PERCENT = 80;

export const CompletionRuleSet = defineEvent(
  'CompletionRuleSet',
  z.object({ courseId: z.string(), percent: z.number().int().min(1).max(100), setBy: z.string(), setAt: at }),
);

/** The course's certificates were decided, after its last round: how many rounds were held, how many were issued. */
export const CompletionChecked = defineEvent(
  'CompletionChecked',
  z.object({
    courseId: z.string(),
    heldRounds: z.number().int().min(0),
    issued: z.number().int().min(0),
    checkedAt: at,
  }),
);

/**
 * What the certificate says, as it was when issued: the course's topic then, the creator who
 * issues it, the rounds held and attended, and the hours of the rounds attended. The member's
 * name is not here: it is personal data, read (and erased) with the member's account.
 */
export const CertificateIssued = defineEvent(
  'CertificateIssued',
  z.object({
    certificateId: CertificateId,
    courseId: z.string(),
    memberId: z.string(),
    courseTopic: z.string(),
    issuerId: z.string(),
    attendedRounds: z.number().int().min(0),
    heldRounds: z.number().int().min(1),
    hours: z.number().min(0),
    percent: z.number().int().min(1).max(100),
    issuedAt: at,
  }),
);

export const CertificateRevoked = defineEvent(
  'CertificateRevoked',
  z.object({ certificateId: CertificateId, reason: z.string(), revokedBy: z.string(), revokedAt: at }),
);

export const certificateEvents = [CompletionRuleSet, CompletionChecked, CertificateIssued, CertificateRevoked] as const;
export const decodeCertificateEvent = createDecoder(certificateEvents);
export type CertificateEvent = NonNullable<ReturnType<typeof decodeCertificateEvent>>;
