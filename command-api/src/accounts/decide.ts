import {
  AdminCreated,
  ConsentGiven,
  MemberApproved,
  MemberRegistered,
  MemberRejected,
  PartnerRegistered,
  PasswordChanged,
  PersonalDataErased,
  ProfileUpdated,
  RegistrationDeleted,
} from '@portal/contracts/accounts/account.events';
import type { NewEvent } from '@portal/contracts/envelope';
import { HttpError } from '@portal/platform/http/errors';
import type { SealedBox } from '@portal/contracts/privacy/sealed';
import type { Account } from './account.ts';

/** Time comes in with the command, never from the clock inside a decision. */
interface At {
  now: string;
}

type Consent = { document: 'terms' | 'privacy'; version: string }[];

/** Personal data arrives sealed: the route seals it with the person's key before deciding. */
export type AccountCommand =
  | { type: 'RegisterMember'; data: { personal: SealedBox; consent: Consent | null; approved?: boolean } & At }
  | { type: 'RegisterPartner'; data: { personal: SealedBox; company: SealedBox; consent: Consent | null } & At }
  | { type: 'CreateAdmin'; data: { personal: SealedBox } & At }
  | { type: 'ChangeRegistrationStatus'; data: { status: 'approved' | 'rejected' } & At }
  | { type: 'DeleteRegistration'; data: At }
  | { type: 'ErasePersonalData'; data: At }
  | { type: 'UpdateProfile'; data: { personal: SealedBox } & At }
  | { type: 'ChangePassword'; data: At };

export function decide(command: AccountCommand, state: Account): NewEvent[] {
  switch (command.type) {
    case 'RegisterMember': {
      mustBeNew(state);
      const { personal, consent, approved, now } = command.data;
      return [
        MemberRegistered.create({ personal, registeredAt: now }),
        ...consentGiven(consent, now),
        // An account an admin creates (/addemployee) needs no approval.
        ...(approved ? [MemberApproved.create({ approvedAt: now })] : []),
      ];
    }
    case 'RegisterPartner': {
      mustBeNew(state);
      const { personal, company, consent, now } = command.data;
      return [PartnerRegistered.create({ personal, company, registeredAt: now }), ...consentGiven(consent, now)];
    }
    case 'CreateAdmin':
      mustBeNew(state);
      return [AdminCreated.create({ personal: command.data.personal, createdAt: command.data.now })];
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
    case 'ErasePersonalData':
      registrationOf(state);
      return [PersonalDataErased.create({ erasedAt: command.data.now })];
    case 'UpdateProfile':
      accountOf(state);
      return [ProfileUpdated.create({ personal: command.data.personal, updatedAt: command.data.now })];
    case 'ChangePassword':
      accountOf(state);
      return [PasswordChanged.create({ changedAt: command.data.now })];
    default: {
      const _exhaustive: never = command;
      throw new Error('unknown command');
    }
  }
}

function mustBeNew(state: Account): void {
  if (state.status !== 'none') throw new Error('account already exists');
}

const consentGiven = (consent: Consent | null, now: string) =>
  consent ? [ConsentGiven.create({ documents: consent, givenAt: now })] : [];

/** Any account that still exists (admins included) can change its own profile and password. */
function accountOf(state: Account) {
  if (!('personal' in state)) throw new HttpError(404, 'profile.notFound');
  return state;
}

/**
 * Only members' and partners' registrations are managed; admins, and accounts already deleted
 * or erased, are not found.
 */
function registrationOf(state: Account) {
  if (!('personal' in state) || state.role === 'admin') throw new HttpError(404, 'registration.notFound');
  return state;
}
