import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Overview } from '@portal/contracts/views/reports';
import { api } from '../../../lib/api-client.ts';
import { browserTimeZone } from '../../../lib/dates.ts';

export type OverviewAnswer = z.infer<typeof Overview>;

export const useOverview = (days: number) =>
  useQuery({
    queryKey: ['overview', days],
    queryFn: () => api<OverviewAnswer>(`/api/admin/overview?days=${days}&tz=${encodeURIComponent(browserTimeZone())}`),
    placeholderData: keepPreviousData,
  });
