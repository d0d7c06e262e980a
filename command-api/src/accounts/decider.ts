import { type AccountEvent, decodeAccountEvent } from '@portal/contracts/accounts/account.events';
import type { Decider } from '../core/command-handler.ts';
import { type Account, evolve, initialState } from './account.ts';
import { type AccountCommand, decide } from './decide.ts';

export const accountDecider: Decider<Account, AccountEvent, AccountCommand> = {
  initialState,
  evolve,
  decode: decodeAccountEvent,
  decide,
};
