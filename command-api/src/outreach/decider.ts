import { type OutreachEvent, decodeOutreachEvent } from '@portal/contracts/outreach/outreach.events';
import type { Decider } from '../core/command-handler.ts';
import { type Outreach, type OutreachCommand, decide, evolve, initialState } from './decide.ts';

export const outreachDecider: Decider<Outreach, OutreachEvent, OutreachCommand> = {
  initialState,
  evolve,
  decode: decodeOutreachEvent,
  decide,
};
