import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession, type Session } from '../../../lib/storage';

export interface SessionState extends Session {
  isLoggedIn: boolean;
}

/** The stored token and user info, re-rendering on login, logout and 401s (also from other tabs). */
export function useSession(): SessionState {
  const session = useSyncExternalStore(subscribeSession, getSession, getSession);
  return { ...session, isLoggedIn: Boolean(session.token) };
}
