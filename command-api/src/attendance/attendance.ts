import type { AttendanceEvent } from '@portal/contracts/attendance/attendance.events';

/** One member in one round: whether a scan counts for them now, and when it happened. */
export interface Attendance {
  accepted: { scannedAt: string } | null;
}

export const initialState = (): Attendance => ({ accepted: null });

export function evolve(state: Attendance, event: AttendanceEvent): Attendance {
  switch (event.type) {
    case 'AttendanceScanned':
      return { accepted: { scannedAt: event.data.scannedAt } };
    case 'AttendanceVoided':
      return { accepted: null };
    case 'ScanRefused':
      return state;
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
