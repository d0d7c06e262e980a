import { useMutation } from '@tanstack/react-query';
import type { ScanAnswer } from '@portal/contracts/answers';
import type { SelfCheckInRequest } from '@portal/contracts/rules/attendance';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

const DEVICE_KEY = 'self-check-in.device';

/** This phone's own id for self check-in: made once, kept on the device (issue 23's one member per device). */
export function deviceId(): string {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    id = crypto.randomUUID();
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

/** POST /api/rounds/{roundId}/self-check-in: accepted, or refused with the reason (409), both answers. */
export const useSelfCheckIn = (roundId: string) =>
  useMutation({
    mutationFn: (body: z.input<typeof SelfCheckInRequest>) =>
      api<ScanAnswer>(`/api/rounds/${roundId}/self-check-in`, { method: 'POST', body }),
  });
