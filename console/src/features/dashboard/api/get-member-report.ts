import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MemberReport } from '@portal/contracts/views/reports';
import { api } from '../../../lib/api-client.ts';

export type MemberReportAnswer = z.infer<typeof MemberReport>;
export type MemberCourse = MemberReportAnswer['course'][number];

/** A member's courses, progress and next rounds (spec 001 section 7: GET /api/admin/courses/{userId}/report). */
export const useMemberReport = (memberId: string) =>
  useQuery({
    queryKey: ['member-report', memberId],
    queryFn: () => api<MemberReportAnswer>(`/api/admin/courses/${memberId}/report`),
  });
