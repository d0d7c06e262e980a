import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AuditPage } from '@portal/contracts/views/audit';
import { api } from '../../../lib/api-client.ts';

/** GET /api/admin/audit/scans: every scan attempt, filtered and paged (admins). */
export interface AuditFilters {
  courseId: string;
  roundId: string;
  memberId: string;
  scannerId: string;
  outcome: '' | 'accepted' | 'refused' | 'voided';
  from: string;
  to: string;
}
export const emptyAuditFilters: AuditFilters = {
  courseId: '',
  roundId: '',
  memberId: '',
  scannerId: '',
  outcome: '',
  from: '',
  to: '',
};

/** The filters as a query string; dates are whole days in the browser's time zone (to is inclusive). */
export function queryOf(filters: AuditFilters, page?: number) {
  const query = new URLSearchParams();
  for (const key of ['courseId', 'roundId', 'memberId', 'scannerId', 'outcome'] as const) {
    if (filters[key].trim()) query.set(key, filters[key].trim());
  }
  if (filters.from) query.set('from', new Date(`${filters.from}T00:00`).toISOString());
  if (filters.to) query.set('to', new Date(new Date(`${filters.to}T00:00`).getTime() + 86_400_000).toISOString());
  if (page) query.set('page', String(page));
  return query.toString();
}

export const scanAuditKey = (filters: AuditFilters, page: number) => ['audit', filters, page];

export const useScanAudit = (filters: AuditFilters, page: number) =>
  useQuery({
    queryKey: scanAuditKey(filters, page),
    queryFn: () => api<z.infer<typeof AuditPage>>(`/api/admin/audit/scans?${queryOf(filters, page)}`),
    placeholderData: keepPreviousData,
  });
