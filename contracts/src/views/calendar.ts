import { z } from 'zod';

/**
 * GET /api/calendar: the caller's private feed, as a path on the portal (the console puts its own
 * origin in front), or null before they first ask for one.
 */
export const CalendarLink = z.object({
  success: z.literal(true),
  path: z.string().nullable(),
  issuedAt: z.string().nullable(),
});
export type CalendarLink = z.infer<typeof CalendarLink>;
