import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { RegistrationPage, RegistrationQuery } from '@portal/contracts/views/account';
import { api } from '../../../lib/api-client.ts';
import { queryString } from '../../../lib/query-string.ts';

export type Filters = Pick<RegistrationQuery, 'search' | 'status' | 'sort' | 'order'> & { page: number };

/** Every cached page of the registration report (an action on a registration reloads them). */
export const registrationsKey = ['registrations'] as const;

/** GET /api/admin/registration: one page of the report, filtered and sorted in the database. */
export const useRegistrations = (filters: Filters) =>
  useQuery({
    queryKey: [...registrationsKey, filters],
    queryFn: () => api<z.infer<typeof RegistrationPage>>(`/api/admin/registration?${queryString({ ...filters })}`),
    placeholderData: keepPreviousData,
  });
