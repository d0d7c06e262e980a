import type { NewEventOf } from '@portal/contracts/catalogue';
import type { NewEvent, StoredEvent } from '@portal/contracts/envelope';
import type { AppendOptions, AppendResult, EventStore, StreamFold } from '@portal/platform/store/port';
import { WrongExpectedRevision } from '@portal/platform/store/port';

type AnyEvent = { type: string; data: unknown };

/**
 * An aggregate's decider (Emmett's shape): `decide` answers the events of this aggregate only, or
 * throws a DomainError (@portal/platform/domain/errors) that the error handler maps to an answer.
 */
export interface Decider<State, Event extends AnyEvent, Command> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decode(event: StoredEvent): Event | null;
  decide(command: Command, state: State): NewEventOf<Event>[];
}

type HandleOptions = Omit<AppendOptions, 'expectedRevision'> & { metadata?: NewEvent['metadata'] };

/**
 * Read the stream, fold it, decide, append, only if nobody appended in between (see
 * EventStore.appendDecided): when they did, callers on one stream are decided one after another
 * on the state the previous one left, so 64 members racing for 10 places get 10 places and 54
 * "full", never "changed at the same time". Only a writer that appends to the stream without
 * deciding (none does today) could still get in between; that is decided again.
 */
export async function handleCommand<State, Event extends AnyEvent, Command>(
  store: EventStore,
  decider: Decider<State, Event, Command>,
  streamId: string,
  command: Command,
  options: HandleOptions = {},
): Promise<AppendResult> {
  const { result } = await handleDecision(
    store,
    decider,
    streamId,
    (state) => ({ events: decider.decide(command, state), outcome: null }),
    options,
  );
  return result;
}

/**
 * The same step for a decision that answers more than its events (a walk-in admitted or not):
 * `decide` returns the events and an outcome, and the outcome of the decision that was appended
 * comes back with the result.
 */
export async function handleDecision<State, Event extends AnyEvent, Outcome>(
  store: EventStore,
  decider: FoldingDecider<State, Event>,
  streamId: string,
  decide: (state: State) => { events: NewEventOf<Event>[]; outcome: Outcome },
  options: HandleOptions = {},
): Promise<{ result: AppendResult; outcome: Outcome | undefined }> {
  const { metadata, ...appendOptions } = options;
  for (;;) {
    let outcome: Outcome | undefined;
    try {
      const result = await store.appendFolded(
        streamId,
        foldOf(decider),
        (state) => {
          const decision = decide(state);
          outcome = decision.outcome;
          return decision.events.map((event) => ({ ...event, metadata }));
        },
        appendOptions,
      );
      // A replayed key answers its first result, not this decision: the outcome is then unknown.
      return { result, outcome: result.replayed ? undefined : outcome };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision)) throw error;
    }
  }
}

/** Fold a stream without deciding anything (for reads the command side needs, such as sign-in). */
export async function loadState<State, Event extends AnyEvent>(
  store: EventStore,
  decider: FoldingDecider<State, Event>,
  streamId: string,
): Promise<State> {
  return (await store.readFolded(streamId, foldOf(decider))).state;
}

type FoldingDecider<State, Event extends AnyEvent> = Pick<
  Decider<State, Event, never>,
  'initialState' | 'evolve' | 'decode'
>;
const folds = new WeakMap<object, StreamFold<unknown>>();

/**
 * The decider's state as the store folds streams, one per decider (the store remembers folds by
 * their identity): events it does not know (decode answers null) leave the state as it was.
 */
export function foldOf<State, Event extends AnyEvent>(decider: FoldingDecider<State, Event>): StreamFold<State> {
  let fold = folds.get(decider) as StreamFold<State> | undefined;
  if (!fold) {
    fold = {
      initial: decider.initialState,
      evolve(state, stored) {
        const event = decider.decode(stored);
        return event ? decider.evolve(state, event) : state;
      },
    };
    folds.set(decider, fold as StreamFold<unknown>);
  }
  return fold;
}
