import type { StoredEvent } from '@portal/contracts/envelope';
import type { EventStore } from '@portal/platform/store/port';

/**
 * The store, answering the first read of each given stream from streams read together beforehand
 * (a workflow that reads several streams pays one round trip), and reading as usual after that:
 * a read after an append or a retry sees the log as it is. A decision made on a prefetched stream
 * is appended expecting the revision that was read, so a stream moved since is decided again on
 * what it holds (EventStore.appendDecided).
 */
export function withPrefetched(store: EventStore, streams: Map<string, StoredEvent[]>): EventStore {
  const take = (streamId: string) => {
    const history = streams.get(streamId);
    streams.delete(streamId);
    return history;
  };
  return {
    ...store,
    readStream: async (streamId) => take(streamId) ?? store.readStream(streamId),
    appendDecided: (streamId, decide, options = {}) =>
      store.appendDecided(streamId, decide, { history: take(streamId), ...options }),
  };
}
