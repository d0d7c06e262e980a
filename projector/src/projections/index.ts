import type { Projection } from '../projection.ts';
import { accountsProjection } from './accounts/projection.ts';
import { coursesProjection } from './courses/projection.ts';
import { attendanceProjection } from './attendance/projection.ts';
import { outreachProjection } from './outreach/projection.ts';
import { notificationsProjection } from './notifications/projection.ts';
import { calendarProjection } from './calendar/projection.ts';
import { certificatesProjection } from './certificates/projection.ts';

/**
 * Every read model the projector maintains, in the order they are applied (attendance after
 * courses: it updates the counts of the course and round rows).
 */
export const projections: readonly Projection[] = [
  accountsProjection,
  coursesProjection,
  attendanceProjection,
  outreachProjection,
  notificationsProjection,
  calendarProjection,
  certificatesProjection,
];
