import type { NewEvent, StoredEvent } from '@portal/events/envelope';
import type { AppendOptions, AppendResult, EventStore } from '@portal/events/store/port';
import { WrongExpectedRevision } from '@portal/events/store/port';

export interface Decider<State, Event, Command> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decode(event: StoredEvent): Event | null;
  decide(command: Command, state: State): NewEvent[];
}

const ATTEMPTS = 5;

/**
 * Read the stream, fold it, decide, append with the revision that was read. When another writer
 * got there first, decide again on the new state (never overwrite): a conflict is a retry.
 */
export async function handleCommand<State, Event, Command>(
  store: EventStore,
  decider: Decider<State, Event, Command>,
  streamId: string,
  command: Command,
  options: Omit<AppendOptions, 'expectedRevision'> & { metadata?: NewEvent['metadata'] } = {},
): Promise<AppendResult> {
  // A replayed command is answered before deciding: deciding again could refuse it.
  const { idempotency } = options;
  const earlier = idempotency && (await store.findIdempotent(idempotency.key, idempotency.fingerprint));
  if (earlier) return earlier;
  for (let attempt = 1; ; attempt++) {
    const history = await store.readStream(streamId);
    const events = decider
      .decide(command, fold(decider, history))
      .map((event) => ({ ...event, metadata: options.metadata }));
    // Nothing to change (enrolling twice): nothing is appended, and the answer points at the stream as it is.
    const last = history.at(-1);
    if (events.length === 0 && last) {
      return { streamId, nextRevision: last.streamRevision, position: last.position, replayed: false };
    }
    try {
      return await store.append(streamId, events, {
        ...options,
        expectedRevision: history.length === 0 ? 'no_stream' : history[history.length - 1]!.streamRevision,
      });
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision) || attempt >= ATTEMPTS) throw error;
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
