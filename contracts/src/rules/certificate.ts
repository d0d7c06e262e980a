import { z } from 'zod';
import type { MessageKey } from './messages.ts';
import { multiLineText } from './text.ts';

/** The certificate forms' rules (issue 23), for server and console. */
const key = (messageKey: MessageKey) => messageKey;

/** PUT /api/admin/courses/{id}/completion-rule: the share of held rounds a member must attend. */
export const CompletionRuleRequest = z.object({
  percent: z
    .number({ error: key('certificate.percentInvalid') })
    .int(key('certificate.percentInvalid'))
    .min(1, key('certificate.percentInvalid'))
    .max(100, key('certificate.percentInvalid')),
});

/** POST /api/admin/certificates/{id}/revoke: why, shown on the certificate's public page. */
export const RevokeRequest = z.object({
  reason: multiLineText(key('certificate.reasonRequired'))
    .trim()
    .min(1, key('certificate.reasonRequired'))
    .max(500, key('certificate.reasonTooLong')),
});
