import type { NewEventOf } from '@portal/contracts/catalogue';
import {
  ContactMessageReceived,
  EmailFailed,
  EmailRequested,
  EmailSent,
  type OutreachEvent,
} from '@portal/contracts/outreach/outreach.events';
import type { Sealed } from '@portal/contracts/privacy/sealed';
import { conflict } from '@portal/platform/domain/errors';
import type { Command, CommandMetadata } from '../core/command.ts';

/**
 * A contact message or an e-mail, each its own stream: a contact message is received once; an
 * e-mail is requested (recorded before it is handed to the transport, so no attempt is lost),
 * then settled once, sent or failed.
 */
export type Outreach = { status: 'none' } | { status: 'received' } | { status: 'requested' } | { status: 'settled' };

export type OutreachCommand =
  /** A visitor may write too: no actor then. */
  | Command<'SendContactMessage', { content: Sealed; senderId: string | null }, CommandMetadata>
  | Command<'RequestEmail', { content: Sealed; senderId: string }>
  | Command<'RecordEmailSent', { transport: 'smtp' | 'outbox'; messageId: string | null }>
  | Command<'RecordEmailFailed', { reason: string }>;

export const initialState = (): Outreach => ({ status: 'none' });

export function evolve(state: Outreach, event: OutreachEvent): Outreach {
  switch (event.type) {
    case 'ContactMessageReceived':
      return { status: 'received' };
    case 'EmailRequested':
      return { status: 'requested' };
    case 'EmailSent':
    case 'EmailFailed':
      return { status: 'settled' };
    default:
      return state;
  }
}

export function decide(command: OutreachCommand, state: Outreach): NewEventOf<OutreachEvent>[] {
  const { now } = command.metadata;
  switch (command.type) {
    case 'SendContactMessage':
      if (state.status !== 'none') throw conflict('request.conflict');
      return [ContactMessageReceived.create({ ...command.data, receivedAt: now })];
    case 'RequestEmail':
      if (state.status !== 'none') throw conflict('request.conflict');
      return [EmailRequested.create({ ...command.data, requestedAt: now })];
    case 'RecordEmailSent':
      if (state.status !== 'requested') throw conflict('request.conflict');
      return [EmailSent.create({ ...command.data, sentAt: now })];
    case 'RecordEmailFailed':
      if (state.status !== 'requested') throw conflict('request.conflict');
      return [EmailFailed.create({ ...command.data, failedAt: now })];
  }
}
