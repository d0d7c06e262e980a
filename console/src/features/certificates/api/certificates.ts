import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Done } from '@portal/contracts/answers';
import type { CertificateVerification, CourseCertificates, MyCertificates } from '@portal/contracts/views/certificate';
import { api, apiFile } from '../../../lib/api-client.ts';

type DoneAnswer = z.infer<typeof Done>;
const mineKey = ['certificates', 'mine'] as const;
const courseKey = (courseId: string) => ['certificates', 'course', courseId] as const;

/** GET /api/certificates: the signed-in member's own. */
export const useMyCertificates = () =>
  useQuery({ queryKey: mineKey, queryFn: () => api<z.infer<typeof MyCertificates>>('/api/certificates') });

/** GET /api/admin/courses/{id}/certificates: the rule and the certificates, for the course's staff. */
export const useCourseCertificates = (courseId: string) =>
  useQuery({
    queryKey: courseKey(courseId),
    queryFn: () => api<CourseCertificates>(`/api/admin/courses/${courseId}/certificates`),
  });

function useCourseMutation<Input, Output>(courseId: string, send: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => client.invalidateQueries({ queryKey: courseKey(courseId) }),
  });
}

export const useSetCompletionRule = (courseId: string) =>
  useCourseMutation(courseId, (percent: number) =>
    api<DoneAnswer>(`/api/admin/courses/${courseId}/completion-rule`, { method: 'PUT', body: { percent } }),
  );

export const useIssueCertificates = (courseId: string) =>
  useCourseMutation(courseId, () =>
    api<DoneAnswer & { issued: number }>(`/api/admin/courses/${courseId}/certificates`, { method: 'POST' }),
  );

export const useRevokeCertificate = (courseId: string) =>
  useCourseMutation(courseId, ({ memberId, reason }: { memberId: string; reason: string }) =>
    api<DoneAnswer>(`/api/admin/courses/${courseId}/certificates/${memberId}/revoke`, {
      method: 'POST',
      body: { reason },
    }),
  );

/** GET /api/certificates/{id}/verification: public, what the QR code's page shows. */
export const useVerification = (certificateId: string) =>
  useQuery({
    queryKey: ['certificates', 'verification', certificateId],
    queryFn: () => api<CertificateVerification>(`/api/certificates/${encodeURIComponent(certificateId)}/verification`),
    retry: false,
  });

/** Downloads a certificate's PDF as a file named for it. */
export async function downloadCertificate(certificateId: string): Promise<void> {
  const blob = await apiFile(`/api/certificates/${certificateId}/pdf`);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `certificate-${certificateId}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
