import type { AccountEvent, Role } from '@portal/contracts/accounts/account.events';
import type { Sealed } from '@portal/contracts/privacy/sealed';

export type RegistrationStatus = 'pending' | 'approved' | 'rejected';

/**
 * What the command side knows of one account, folded from its stream. Personal data stays
 * sealed here; a route that must show it opens it with the person's key.
 */
export type Account =
  | { status: 'none' }
  | { status: RegistrationStatus; role: Role; personal: Sealed }
  | { status: 'deleted' | 'erased'; role: Role };

export const initialState = (): Account => ({ status: 'none' });

export function evolve(state: Account, event: AccountEvent): Account {
  switch (event.type) {
    case 'MemberRegistered':
      return { status: 'pending', role: 'member', personal: event.data.personal };
    case 'PartnerRegistered':
      return { status: 'pending', role: 'partner', personal: event.data.personal };
    case 'AdminCreated':
      return { status: 'approved', role: 'admin', personal: event.data.personal };
    case 'MemberApproved':
      return 'personal' in state ? { ...state, status: 'approved' } : state;
    case 'MemberRejected':
      return 'personal' in state ? { ...state, status: 'rejected' } : state;
    case 'RegistrationDeleted':
      return state.status === 'none' ? state : { status: 'deleted', role: state.role };
    case 'PersonalDataErased':
      return state.status === 'none' ? state : { status: 'erased', role: state.role };
    case 'ProfileUpdated':
      return 'personal' in state ? { ...state, personal: event.data.personal } : state;
    case 'ConsentGiven':
    case 'PasswordChanged':
      return state;
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
