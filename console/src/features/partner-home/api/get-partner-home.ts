import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PartnerHome } from '@portal/contracts/views/partner-home';
import { api } from '../../../lib/api-client.ts';

export type PartnerHomeAnswer = z.infer<typeof PartnerHome>;

/** The partner's home, fetched again every minute so "open now" follows the clock. */
export const usePartnerHome = () =>
  useQuery({
    queryKey: ['partner-home'],
    queryFn: () => api<PartnerHomeAnswer>('/api/partner/home'),
    refetchInterval: 60_000,
  });
