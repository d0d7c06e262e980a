import { LRUCache } from 'lru-cache';
import type { Folded, StreamFold } from './port.ts';

/** Streams remembered at most, per store: a course of 2,000 members folds to about 100 KB. */
export const REMEMBERED_STREAMS = 5_000;

/**
 * The folds a store made most recently, by fold and stream, least recently used forgotten first.
 * A fold is true of its stream up to its revision for ever (the log is only appended to), so a
 * later read folds only what was appended since, whoever appended it.
 */
export function createFoldMemory(limit = REMEMBERED_STREAMS) {
  const ids = new WeakMap<StreamFold<unknown>, number>();
  const folds = new LRUCache<string, Folded<unknown>>({ max: limit });
  let nextId = 0;
  const keyOf = (fold: StreamFold<unknown>, streamId: string) => {
    let id = ids.get(fold);
    if (id === undefined) ids.set(fold, (id = nextId++));
    return `${id}\u0000${streamId}`;
  };
  return {
    get<State>(fold: StreamFold<State>, streamId: string): Folded<State> | undefined {
      return folds.get(keyOf(fold as StreamFold<unknown>, streamId)) as Folded<State> | undefined;
    },
    /** Remembers a fold unless one at a later revision is remembered already. */
    set<State>(fold: StreamFold<State>, streamId: string, folded: Folded<State>) {
      const key = keyOf(fold as StreamFold<unknown>, streamId);
      const known = folds.get(key);
      if (known && known.revision > folded.revision) return;
      folds.set(key, folded);
    },
    /** Forgets everything: the log is behind what was read (a database restored under the process). */
    clear: () => folds.clear(),
  };
}
