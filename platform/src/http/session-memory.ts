import { LRUCache } from 'lru-cache';
import type { SqlDatabase } from '../store/sql.ts';
import { SESSIONS_CHANNEL, type SessionKey, noteActivity, sessionState } from './revocations.ts';

type SessionState = Awaited<ReturnType<typeof sessionState>>;

/** Sessions remembered at most, the least recently read forgotten first. */
const REMEMBERED_SESSIONS = 10_000;
/** A remembered state is read again after this long, whatever was heard meanwhile. */
const REMEMBERED_FOR_MS = 60_000;

/**
 * The states of sessions that stand, as this process last read them, so that a request does not
 * pay a round trip to the database for its session's check (a scan's answer paid three).
 *
 * Sound because a session only ever stops standing, and every change that ends sessions tells:
 * revocations.ts NOTIFYs SESSIONS_CHANNEL with the change (at its commit), and this process then
 * forgets every state it remembers; the routes of this process that end sessions also call
 * `forgetAll` once their change committed, so their next request is checked anew even before the
 * notification arrives. A read that began before a change was heard is not remembered. Nothing is
 * remembered while the listening connection is lost (notifications would be missed), and
 * everything is forgotten when it is back. Another process's change takes effect here when its
 * notification arrives, a millisecond or so after its commit.
 *
 * Only standing sessions are remembered: an ended one is read each time (a stolen token tried
 * again is no faster for it). A remembered state the caller cannot use (`usable`: its last use
 * too long ago, when another process may have noted a later one) is read again.
 */
export async function sessionMemory(db: SqlDatabase) {
  const states = new LRUCache<string, { state: SessionState }>({ max: REMEMBERED_SESSIONS, ttl: REMEMBERED_FOR_MS });
  let heard = 0;
  let listening: 'starting' | 'up' | 'down' = 'starting';
  const forgetAll = () => {
    heard++;
    states.clear();
  };
  const stop = await db.listen(
    SESSIONS_CHANNEL,
    forgetAll,
    () => {
      forgetAll();
      listening = 'up';
    },
    () => {
      forgetAll();
      listening = 'down';
    },
  );
  if (listening === 'starting') listening = 'up';

  return {
    async stateOf(key: SessionKey, usable: (state: SessionState) => boolean): Promise<SessionState> {
      const remembered = states.get(key.sessionId);
      if (remembered && listening === 'up' && usable(remembered.state)) return remembered.state;
      const before = heard;
      const state = await sessionState(db, key);
      states.delete(key.sessionId);
      if (!state.ended && before === heard && listening === 'up') states.set(key.sessionId, { state });
      return state;
    },
    /** Notes in the database that the session was used at `atMs` (revocations.ts), and remembers it. */
    async noteUse(key: SessionKey, atMs: number) {
      await noteActivity(db, key, atMs);
      const remembered = states.get(key.sessionId);
      if (remembered) remembered.state = { ...remembered.state, lastSeenMs: atMs };
    },
    forgetAll,
    stop,
  };
}
