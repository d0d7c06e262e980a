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
  type AccountEvent,
} from '@portal/contracts/accounts/account.events';
import type { NewEventOf } from '@portal/contracts/catalogue';
import type { Command, CommandMetadata } from '../core/command.ts';
import type { SealedBox } from '@portal/contracts/privacy/sealed';
import type { Account } from './account.ts';
import { conflict, notFound } from '@portal/platform/domain/errors';

type Consent = { document: 'terms' | 'privacy'; version: string }[];

/** Personal data arrives sealed: the route seals it with the person's key before deciding. */
type AccountCommandOf<Type extends string, Data = Record<string, never>> = Command<Type, Data, CommandMetadata>;

export type AccountCommand =
  | AccountCommandOf<'RegisterMember', { personal: SealedBox; consent: Consent | null; approved?: boolean }>
  | AccountCommandOf<'RegisterPartner', { personal: SealedBox; company: SealedBox; consent: Consent | null }>
  | AccountCommandOf<'CreateAdmin', { personal: SealedBox }>
  | AccountCommandOf<'ChangeRegistrationStatus', { status: 'approved' | 'rejected' }>
  | AccountCommandOf<'DeleteRegistration'>
  | AccountCommandOf<'ErasePersonalData'>
  | AccountCommandOf<'UpdateProfile', { personal: SealedBox }>
  | AccountCommandOf<'ChangePassword'>;

export function decide(command: AccountCommand, state: Account): NewEventOf<AccountEvent>[] {
  const { now } = command.metadata;
  switch (command.type) {
    case 'RegisterMember': {
      mustBeNew(state);
      const { personal, consent, approved } = command.data;
      return [
        MemberRegistered.create({ personal, registeredAt: now }),
        ...consentGiven(consent, now),
        // An account an admin creates (/addemployee) needs no approval.
        ...(approved ? [MemberApproved.create({ approvedAt: now })] : []),
      ];
    }
    case 'RegisterPartner': {
      mustBeNew(state);
      const { personal, company, consent } = command.data;
      return [PartnerRegistered.create({ personal, company, registeredAt: now }), ...consentGiven(consent, now)];
    }
    case 'CreateAdmin':
      mustBeNew(state);
      return [AdminCreated.create({ personal: command.data.personal, createdAt: now })];
    case 'ChangeRegistrationStatus': {
      const registration = registrationOf(state);
      if (registration.status === command.data.status) throw conflict('registration.alreadyInStatus');
      return command.data.status === 'approved'
        ? [MemberApproved.create({ approvedAt: now })]
        : [MemberRejected.create({ rejectedAt: now })];
    }
    case 'DeleteRegistration':
      registrationOf(state);
      return [RegistrationDeleted.create({ deletedAt: now })];
    case 'ErasePersonalData':
      registrationOf(state);
      return [PersonalDataErased.create({ erasedAt: now })];
    case 'UpdateProfile':
      accountOf(state);
      return [ProfileUpdated.create({ personal: command.data.personal, updatedAt: now })];
    case 'ChangePassword':
      accountOf(state);
      return [PasswordChanged.create({ changedAt: now })];
    default: {
      const _exhaustive: never = command;
      throw new Error('unknown command');
    }
  }
}

function mustBeNew(state: Account): void {
  if (state.status !== 'none') throw conflict('request.conflict');
}

const consentGiven = (consent: Consent | null, now: string) =>
  consent ? [ConsentGiven.create({ documents: consent, givenAt: now })] : [];

/** Any account that still exists (admins included) can change its own profile and password. */
function accountOf(state: Account) {
  if (!('personal' in state)) throw notFound('profile.notFound');
  return state;
}

/**
 * Only members' and partners' registrations are managed; admins, and accounts already deleted
 * or erased, are not found.
 */
function registrationOf(state: Account) {
  if (!('personal' in state) || state.role === 'admin') throw notFound('registration.notFound');
  return state;
}
