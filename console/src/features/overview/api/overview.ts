import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Overview } from '@portal/query-api/contracts/reports';
import { api } from '../../../lib/api-client.ts';

export type OverviewAnswer = z.infer<typeof Overview>;

/** The browser's time zone, so the overview's days are the admin's days. */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export const useOverview = (days: number) =>
  useQuery({
    queryKey: ['overview', days],
    queryFn: () => api<OverviewAnswer>(`/api/admin/overview?days=${days}&tz=${encodeURIComponent(timeZone())}`),
    placeholderData: keepPreviousData,
  });
