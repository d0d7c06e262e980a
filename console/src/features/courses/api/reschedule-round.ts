import type { Done } from '@portal/contracts/answers';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import type { RoundTimes } from './schedule-round.ts';

/** PUT /api/admin/courses/{courseId}/rounds/{roundId} */
export const rescheduleRound = (courseId: string, roundId: string, body: RoundTimes) =>
  api<z.infer<typeof Done>>(`/api/admin/courses/${courseId}/rounds/${roundId}`, { method: 'PUT', body });
