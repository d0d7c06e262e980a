import { z } from 'zod';
import { PartnerRound } from './partner-home.ts';

/** A course's scan-only assistants (issue 18), for its creator and admins. */
export const AssistantList = z.object({
  success: z.literal(true),
  assistants: z.array(
    z.object({
      _id: z.string(),
      fullName: z.string().nullable(),
      username: z.string().nullable(),
      role: z.string().nullable(),
      addedAt: z.string(),
    }),
  ),
  message: z.string(),
});

/** The rounds an assistant may open and scan in: open now or within the week. */
export const AssistingAnswer = z.object({
  success: z.literal(true),
  rounds: z.array(PartnerRound),
  message: z.string(),
});
