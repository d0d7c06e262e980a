import type { Done } from '@portal/contracts/answers';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

export interface RoundTimes {
  roundStartTime: string;
  roundEndTime: string;
}

/** POST /api/admin/courses/{courseId}/rounds */
export const scheduleRound = (courseId: string, body: RoundTimes) =>
  api<z.infer<typeof Done>>(`/api/admin/courses/${courseId}/rounds`, { method: 'POST', body });
