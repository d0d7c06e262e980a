import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Done } from '@portal/contracts/answers';
import type { CalendarLink } from '@portal/contracts/views/calendar';
import { api } from '../../../lib/api-client.ts';

const calendarKey = ['calendar-link'] as const;

/** GET /api/calendar: the signed-in person's private feed (its path, or null before the first). */
export const useCalendarLink = () =>
  useQuery({ queryKey: calendarKey, queryFn: () => api<CalendarLink>('/api/calendar') });

/** POST /api/calendar/feed: a new feed address; the one before stops working. */
export function useIssueCalendar() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<z.infer<typeof Done>>('/api/calendar/feed', { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: calendarKey }),
  });
}

/**
 * The address a calendar app subscribes to, on the origin the person is using, in their language;
 * and the same as webcal:, which opens the device's calendar app to subscribe.
 */
export function feedAddresses(path: string, language: string, origin = window.location.origin) {
  const https = `${origin}${path}?lang=${language.startsWith('th') ? 'th' : 'en'}`;
  return { https, webcal: https.replace(/^https?:/, 'webcal:') };
}
