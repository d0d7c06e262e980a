import { expect } from 'vitest';
import type { NewEvent, StoredEvent } from '@portal/contracts/envelope';
import type { MessageKey } from '@portal/contracts/rules/messages';
import type { RefusalKind } from '@portal/platform/domain/errors';
import type { Decider } from '../core/command-handler.ts';

/**
 * Given these events, when this command, then these events (or this refusal): a decider tested
 * with no I/O, as Emmett's DeciderSpecification does. The events are decoded as the store would
 * hand them back, so upcasters run too.
 */
export function deciderSpecification<State, Event extends { type: string; data: unknown }, Command>(
  decider: Decider<State, Event, Command>,
  streamId = 'stream-1',
) {
  return (...events: NewEvent[]) => {
    const state = events.reduce((folded, event, revision) => {
      const stored: StoredEvent = {
        metadata: {},
        ...event,
        streamId,
        streamRevision: revision,
        position: revision + 1,
        transactionId: '1',
        createdAt: '2026-01-01T00:00:00.000Z',
      };
      const decoded = decider.decode(stored);
      return decoded ? decider.evolve(folded, decoded) : folded;
    }, decider.initialState());
    return {
      when(command: Command) {
        const run = () => decider.decide(command, state);
        return {
          then: (expected: { type: string; data?: object }[]) =>
            expect(run().map(({ type, data }) => ({ type, data }))).toEqual(
              expected.map((event) => ({ type: event.type, data: expect.objectContaining(event.data ?? {}) })),
            ),
          refused: (kind: RefusalKind, messageKey: MessageKey) =>
            expect(run).toThrow(expect.objectContaining({ kind, messageKey }) as unknown as Error),
        };
      },
    };
  };
}
