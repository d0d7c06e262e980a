import type { Done } from '@portal/contracts/answers';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

/** DELETE /api/admin/courses/{courseId}/rounds/{roundId} */
export const cancelRound = (courseId: string, roundId: string) =>
  api<z.infer<typeof Done>>(`/api/admin/courses/${courseId}/rounds/${roundId}`, { method: 'DELETE' });
