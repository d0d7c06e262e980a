import type { NewEvent, StoredEvent } from '@portal/contracts/envelope';
import type { AppendOptions, AppendResult, EventStore } from '@portal/platform/store/port';
import { WrongExpectedRevision } from '@portal/platform/store/port';

export interface Decider<State, Event, Command> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decode(event: StoredEvent): Event | null;
  decide(command: Command, state: State): NewEvent[];
}

/**
 * Read the stream, fold it, decide, append, as one step with the stream locked (see
 * EventStore.appendDecided): callers on one stream are decided one after another on the state the
 * previous one left, so 64 members racing for 10 places get 10 places and 54 "full", never
 * "changed at the same time". Only a writer that appends to the stream without deciding (none
 * does today) could still get in between; that is decided again.
 */
export async function handleCommand<State, Event, Command>(
  store: EventStore,
  decider: Decider<State, Event, Command>,
  streamId: string,
  command: Command,
  options: Omit<AppendOptions, 'expectedRevision'> & { metadata?: NewEvent['metadata'] } = {},
): Promise<AppendResult> {
  const { metadata, ...appendOptions } = options;
  for (;;) {
    try {
      return await store.appendDecided(
        streamId,
        (history) => decider.decide(command, fold(decider, history)).map((event) => ({ ...event, metadata })),
        appendOptions,
      );
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision)) throw error;
    }
  }
}

/** Fold a stream without deciding anything (for reads the command side needs, such as sign-in). */
export async function loadState<State, Event>(
  store: EventStore,
  decider: Pick<Decider<State, Event, never>, 'initialState' | 'evolve' | 'decode'>,
  streamId: string,
): Promise<State> {
  return fold(decider, await store.readStream(streamId));
}

function fold<State, Event>(
  decider: Pick<Decider<State, Event, never>, 'initialState' | 'evolve' | 'decode'>,
  history: StoredEvent[],
): State {
  let state = decider.initialState();
  for (const stored of history) {
    const event = decider.decode(stored);
    if (event) state = decider.evolve(state, event);
  }
  return state;
}
