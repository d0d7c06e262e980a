import { DeviceCheckedIn, type DeviceEvent, decodeDeviceEvent } from '@portal/contracts/attendance/attendance.events';
import type { NewEventOf } from '@portal/contracts/catalogue';
import type { Decider } from '../core/command-handler.ts';
import type { Command } from '../core/command.ts';

/** One device in one round, for self check-in: whom it checked in first (null: nobody yet). */
export interface Device {
  memberId: string | null;
}

export type DeviceCommand = Command<'CheckInFrom', { roundId: string; deviceId: string; memberId: string }>;

/** The device's first member holds it; the same member again is no change. */
export function deviceHolder(state: Device, memberId: string): 'free' | 'theirs' | 'taken' {
  if (state.memberId === null) return 'free';
  return state.memberId === memberId ? 'theirs' : 'taken';
}

export const deviceDecider: Decider<Device, DeviceEvent, DeviceCommand> = {
  initialState: () => ({ memberId: null }),
  evolve: (state, event) => (state.memberId === null ? { memberId: event.data.memberId } : state),
  decode: decodeDeviceEvent,
  decide(command, state): NewEventOf<DeviceEvent>[] {
    if (deviceHolder(state, command.data.memberId) !== 'free') return [];
    return [DeviceCheckedIn.create({ ...command.data, checkedInAt: command.metadata.now })];
  },
};
