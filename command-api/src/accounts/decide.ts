import {
  AdminCreated,
  MemberApproved,
  MemberRegistered,
  MemberRejected,
  RegistrationDeleted,
} from '@portal/events/accounts/account.events';
import type { NewEvent } from '@portal/events/envelope';
import { HttpError } from '@portal/events/http/errors';
import type { MemberRegistration } from '@portal/events/rules/registration';
import type { Account } from './account.ts';

/** Time comes in with the command, never from the clock inside a decision. */
interface At {
  now: string;
}

export type AccountCommand =
  | { type: 'RegisterMember'; data: Omit<MemberRegistration, 'password'> & At }
  | { type: 'CreateAdmin'; data: { username: string; fullName: string } & At }
  | { type: 'ChangeRegistrationStatus'; data: { status: 'approved' | 'rejected' } & At }
  | { type: 'DeleteRegistration'; data: At };

export function decide(command: AccountCommand, state: Account): NewEvent[] {
  switch (command.type) {
    case 'RegisterMember': {
      if (state.status !== 'none') throw new Error('account already exists');
      const { now, ...profile } = command.data;
      return [MemberRegistered.create({ ...profile, registeredAt: now })];
    }
    case 'CreateAdmin': {
      if (state.status !== 'none') throw new Error('account already exists');
      const { now, ...admin } = command.data;
      return [AdminCreated.create({ ...admin, createdAt: now })];
    }
    case 'ChangeRegistrationStatus': {
      const registration = registrationOf(state);
      if (registration.status === command.data.status) throw new HttpError(409, 'registration.alreadyInStatus');
      return command.data.status === 'approved'
        ? [MemberApproved.create({ approvedAt: command.data.now })]
        : [MemberRejected.create({ rejectedAt: command.data.now })];
    }
    case 'DeleteRegistration':
      registrationOf(state);
      return [RegistrationDeleted.create({ deletedAt: command.data.now })];
    default: {
      const _exhaustive: never = command;
      throw new Error('unknown command');
    }
  }
}

/** Only members' and partners' registrations are managed; admins and missing ones are not found. */
function registrationOf(state: Account) {
  if (state.status === 'none' || state.status === 'deleted' || state.role === 'admin') {
    throw new HttpError(404, 'registration.notFound');
  }
  return state;
}
