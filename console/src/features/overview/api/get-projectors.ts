import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ProjectorsAnswer } from '@portal/contracts/views/projectors';
import { api } from '../../../lib/api-client.ts';

export type ProjectorsView = z.infer<typeof ProjectorsAnswer>;

/** How far the read models and each projector are behind the log, refreshed every 5 seconds. */
export const useProjectors = () =>
  useQuery({
    queryKey: ['projectors'],
    queryFn: () => api<ProjectorsView>('/api/admin/projectors'),
    refetchInterval: 5000,
  });
