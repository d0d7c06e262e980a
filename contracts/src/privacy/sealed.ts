import { z } from 'zod';

/**
 * The shape of personal data inside events: sealed with the person's own key (AES-256-GCM) by
 * the platform's privacy module (@portal/platform/privacy/personal-data), which also opens it.
 */
export const SealedBox = z.object({
  alg: z.literal('A256GCM'),
  subject: z.string(),
  iv: z.string(),
  tag: z.string(),
  data: z.string(),
});
export type SealedBox = z.infer<typeof SealedBox>;

/** Data written in the clear by version 1 events; their upcasters wrap it in this shape. */
const LegacyPlain = z.object({ plain: z.record(z.string(), z.unknown()) });

export const Sealed = z.union([SealedBox, LegacyPlain]);
export type Sealed = z.infer<typeof Sealed>;

export const legacyPlain = (data: Record<string, unknown>): Sealed => ({ plain: data });
