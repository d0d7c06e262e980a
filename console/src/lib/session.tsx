import { type ReactNode, createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { SignedInPartner } from '@portal/contracts/accounts/login.contract';
import { api, onSessionEnded } from './api-client.ts';
import { type StoredUser, clearStorage, saveSession, storedUser } from './storage.ts';

interface SessionValue {
  user: StoredUser | null;
  /** The user kept in storage at load could not be read (edited, from an older version): signed out. */
  storedInvalid: boolean;
  signIn(partner: SignedInPartner): StoredUser;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

/** The rounds the service worker kept for offline use (vite.config.ts) go with the session. */
function forgetKeptRounds() {
  if ('caches' in window) {
    for (const cache of ['rounds', 'photos']) void caches.delete(cache).catch(() => undefined);
  }
}

/** Restores the session from storage on load; a stored user that is not valid signs out. */
function restore(): { user: StoredUser | null; storedInvalid: boolean } {
  const user = storedUser();
  if (user === 'invalid') {
    clearStorage();
    return { user: null, storedInvalid: true };
  }
  return { user, storedInvalid: false };
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [restored] = useState(restore);
  const [user, setUser] = useState<StoredUser | null>(restored.user);
  const signIn = useCallback((partner: SignedInPartner) => {
    const saved = saveSession(partner);
    setUser(saved);
    return saved;
  }, []);
  const signOut = useCallback(async () => {
    clearStorage();
    forgetKeptRounds();
    setUser(null);
    await api('/api/logout', { method: 'POST', body: {} }).catch(() => undefined); // clears the cookie
  }, []);
  // A session the server ended (idle, too old, a password change elsewhere) ends here too.
  useEffect(
    () =>
      onSessionEnded(() => {
        clearStorage();
        forgetKeptRounds();
        setUser(null);
      }),
    [],
  );
  const storedInvalid = restored.storedInvalid && user === null;
  const value = useMemo(() => ({ user, storedInvalid, signIn, signOut }), [user, storedInvalid, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** Where each role lands after sign-in (spec 000 section 4). */
export function homeOf(role: string | undefined): string {
  if (role === 'partner') return '/partner';
  if (role === 'admin') return '/admin';
  return '/e-market';
}
