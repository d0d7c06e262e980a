import { useQuery } from '@tanstack/react-query';
import type { Province } from '@portal/contracts/views/address';
import { api } from './api-client.ts';

/** Thai provinces, districts and subdistricts, loaded once per visit (the list does not change). */
export const useProvinces = () =>
  useQuery({
    queryKey: ['address', 'provinces'],
    queryFn: () => api<Province[]>('/api/address/provinces'),
    staleTime: Infinity,
    retry: 1,
  });
