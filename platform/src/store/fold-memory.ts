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
  const folds = new Map<string, Folded<unknown>>();
  let nextId = 0;
  const keyOf = (fold: StreamFold<unknown>, streamId: string) => {
    let id = ids.get(fold);
    if (id === undefined) ids.set(fold, (id = nextId++));
    return `${id}\u0000${streamId}`;
  };
  return {
    get<State>(fold: StreamFold<State>, streamId: string): Folded<State> | undefined {
      const key = keyOf(fold as StreamFold<unknown>, streamId);
      const folded = folds.get(key);
      if (folded) {
        folds.delete(key);
        folds.set(key, folded);
      }
      return folded as Folded<State> | undefined;
    },
    /** Remembers a fold unless one at a later revision is remembered already. */
    set<State>(fold: StreamFold<State>, streamId: string, folded: Folded<State>) {
      const key = keyOf(fold as StreamFold<unknown>, streamId);
      const known = folds.get(key);
      if (known && known.revision > folded.revision) return;
      folds.delete(key);
      folds.set(key, folded);
      if (folds.size > limit) folds.delete(folds.keys().next().value!);
    },
    /** Forgets everything: the log is behind what was read (a database restored under the process). */
    clear: () => folds.clear(),
  };
}
