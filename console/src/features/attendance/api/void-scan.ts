import type { z } from 'zod';
import type { Done } from '@portal/contracts/answers';
import { api } from '../../../lib/api-client.ts';

/** POST /api/admin/rounds/{roundId}/attendance/{memberId}/void: an admin voids a wrong scan, saying why. */
export const voidScan = (roundId: string, memberId: string, reason: string) =>
  api<z.infer<typeof Done>>(`/api/admin/rounds/${roundId}/attendance/${memberId}/void`, {
    method: 'POST',
    body: { reason },
  });
