import { type AttendanceEvent, decodeAttendanceEvent } from '@portal/contracts/attendance/attendance.events';
import type { Decider } from '../core/command-handler.ts';
import { type Attendance, evolve, initialState } from './attendance.ts';
import { type AttendanceCommand, decide } from './decide.ts';

export const attendanceDecider: Decider<Attendance, AttendanceEvent, AttendanceCommand> = {
  initialState,
  evolve,
  decode: decodeAttendanceEvent,
  decide,
};
