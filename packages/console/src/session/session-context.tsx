import type { Scope } from '@memory-service/client';
import { type ComponentChildren, createContext } from 'preact';
import { useContext, useMemo, useState } from 'preact/hooks';
import { clearUndo } from '../undo/undo-list.js';
import { type ConsoleSession, clearSession, loadSession, saveSession } from './console-session.js';

/** The session and the ways to change it. */
export interface SessionValue {
  /** null while signed out. */
  session: ConsoleSession | null;
  signIn: (session: ConsoleSession) => void;
  /** Drops the Undo offers, then forgets the credentials and the scope. */
  signOut: () => Promise<void>;
  /** Changes the scope of every later call. */
  setScope: (scope: Scope) => void;
}

const SessionContext = createContext<SessionValue | null>(null);

/** Holds the tab's session (from sessionStorage) for `useSession` and `useClient`. */
export function SessionProvider({ children }: { children: ComponentChildren }) {
  const [session, setSession] = useState<ConsoleSession | null>(loadSession);
  const value = useMemo<SessionValue>(
    () => ({
      session,
      signIn: (next) => {
        saveSession(next);
        setSession(next);
      },
      signOut: async () => {
        clearUndo();
        clearSession();
        setSession(null);
      },
      setScope: (scope) => {
        if (session === null) return;
        const next = { ...session, scope };
        saveSession(next);
        setSession(next);
      },
    }),
    [session],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The session of this tab; only inside `SessionProvider`. */
export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (value === null) throw new Error('useSession is used outside SessionProvider');
  return value;
}
