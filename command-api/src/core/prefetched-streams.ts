import type { EventStore, Folded, StreamAt, StreamFold } from '@portal/platform/store/port';

/** A stream a workflow will read, and how its area folds it. */
export interface StreamToRead {
  streamId: string;
  fold: StreamFold<unknown>;
  /** Taken as new when the store remembers nothing of it (withRemembered): the stream a workflow appends a first event to. */
  newWhenUnknown?: boolean;
}

/**
 * The store, answering the first read of each given stream from streams folded together
 * beforehand (a workflow that reads several streams pays one round trip), and reading as usual
 * after that: a read after an append or a retry sees the log as it is. A decision made on a
 * prefetched stream is appended expecting the revision that was read, so a stream moved since is
 * decided again on what it holds (EventStore.appendFolded).
 */
export async function withPrefetched(store: EventStore, streams: readonly StreamToRead[]): Promise<EventStore> {
  return answering(store, streams, await store.readFoldedMany(streams), []);
}

/**
 * withPrefetched without the read: the streams as this process remembers them
 * (EventStore.rememberedFolds), or null when it does not remember one. Another process may have
 * appended to them since, so every append made through this store names the others as
 * `decidedOn`: it is refused with ReadStreamsMoved when one moved, and the workflow must then be
 * run again on withPrefetched. Nothing is refused while they stand, and a workflow whose streams
 * only this process writes (one portal process, or a course scanned through one) reads nothing.
 */
export function withRemembered(store: EventStore, streams: readonly StreamToRead[]): EventStore | null {
  const folded = store.rememberedFolds(streams);
  if (!folded) return null;
  const decidedOn = streams.map(({ streamId }, index) => ({ streamId, revision: folded[index]!.revision }));
  return answering(store, streams, folded, decidedOn);
}

function answering(
  store: EventStore,
  streams: readonly StreamToRead[],
  read: Folded<unknown>[],
  decidedOn: readonly StreamAt[],
): EventStore {
  const prefetched = new Map(streams.map(({ streamId, fold }, index) => [streamId, { fold, folded: read[index]! }]));
  const take = <State>(streamId: string, fold: StreamFold<State>) => {
    const found = prefetched.get(streamId);
    if (found?.fold !== fold) return undefined;
    prefetched.delete(streamId);
    return found.folded as Folded<State>;
  };
  /**
   * The streams decided on, but the one appended to when the decision is made on its fold as
   * taken here (the revision it expects checks it); one read here before is still checked.
   */
  const checking = (besides: string | null) =>
    decidedOn.length === 0 ? {} : { decidedOn: decidedOn.filter((at) => at.streamId !== besides) };
  return {
    ...store,
    readFolded: async (streamId, fold) => take(streamId, fold) ?? store.readFolded(streamId, fold),
    appendFolded: (streamId, fold, decide, options = {}) => {
      const folded = take(streamId, fold);
      return store.appendFolded(streamId, fold, decide, { folded, ...options, ...checking(folded ? streamId : null) });
    },
    append: (streamId, events, options) => store.append(streamId, events, { ...options, ...checking(null) }),
    appendDecided: (streamId, decide, options) =>
      store.appendDecided(streamId, decide, { ...options, ...checking(null) }),
  };
}
