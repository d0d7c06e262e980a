import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AttendanceHistory } from '@portal/contracts/views/audit';
import { api } from '../../../lib/api-client.ts';

/** GET /api/admin/members/{id}/attendance: every round a member was scanned in, newest first (admins). */
export const useMemberHistory = (memberId: string) =>
  useQuery({
    queryKey: ['member-history', memberId],
    queryFn: () => api<z.infer<typeof AttendanceHistory>>(`/api/admin/members/${memberId}/attendance`),
  });
