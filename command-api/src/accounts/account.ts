import type { AccountEvent, Role } from '@portal/events/accounts/account.events';

/** What the command side knows of one account, folded from its stream. */
export interface Profile {
  username: string;
  title: string;
  fullName: string;
  personalPhone: string;
  personalEmail: string;
}

export type RegistrationStatus = 'pending' | 'approved' | 'rejected';

export type Account =
  { status: 'none' } | { status: RegistrationStatus; role: Role; profile: Profile } | { status: 'deleted'; role: Role };

export const initialState = (): Account => ({ status: 'none' });

export function evolve(state: Account, event: AccountEvent): Account {
  switch (event.type) {
    case 'MemberRegistered':
    case 'PartnerRegistered':
      return { status: 'pending', role: event.type === 'MemberRegistered' ? 'member' : 'partner', profile: event.data };
    case 'AdminCreated':
      return {
        status: 'approved',
        role: 'admin',
        profile: { ...event.data, title: '', personalPhone: '', personalEmail: '' },
      };
    case 'MemberApproved':
      return state.status === 'none' || state.status === 'deleted' ? state : { ...state, status: 'approved' };
    case 'MemberRejected':
      return state.status === 'none' || state.status === 'deleted' ? state : { ...state, status: 'rejected' };
    case 'RegistrationDeleted':
      return state.status === 'none' ? state : { status: 'deleted', role: state.role };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
