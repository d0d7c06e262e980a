import type { EventStore, Folded, StreamFold } from '@portal/platform/store/port';

/** A stream a workflow will read, and how its area folds it. */
export interface StreamToRead {
  streamId: string;
  fold: StreamFold<unknown>;
}

/**
 * The store, answering the first read of each given stream from streams folded together
 * beforehand (a workflow that reads several streams pays one round trip), and reading as usual
 * after that: a read after an append or a retry sees the log as it is. A decision made on a
 * prefetched stream is appended expecting the revision that was read, so a stream moved since is
 * decided again on what it holds (EventStore.appendFolded).
 */
export async function withPrefetched(store: EventStore, streams: readonly StreamToRead[]): Promise<EventStore> {
  const read = await store.readFoldedMany(streams);
  const prefetched = new Map(streams.map(({ streamId, fold }, index) => [streamId, { fold, folded: read[index]! }]));
  const take = <State>(streamId: string, fold: StreamFold<State>) => {
    const found = prefetched.get(streamId);
    if (found?.fold !== fold) return undefined;
    prefetched.delete(streamId);
    return found.folded as Folded<State>;
  };
  return {
    ...store,
    readFolded: async (streamId, fold) => take(streamId, fold) ?? store.readFolded(streamId, fold),
    appendFolded: (streamId, fold, decide, options = {}) =>
      store.appendFolded(streamId, fold, decide, { folded: take(streamId, fold), ...options }),
  };
}
