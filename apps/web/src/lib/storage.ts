import type { Language, UserInfo } from '@taleloom/contracts';

export const STORAGE_KEYS = {
  token: 'token',
  userInfo: 'userInfo',
  lang: 'lang',
} as const;

// localStorage can throw (private mode, disabled storage): the app keeps working without persistence.
function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // ignore: see read()
  }
}

export function getStoredLanguage(): string | null {
  return read(STORAGE_KEYS.lang);
}

/**
 * Remembers the chosen language in localStorage `lang`, and in a cookie of the same name: the server
 * sends the sign-in page already rendered in it (apps/api/src/web/serve-web-app.ts).
 */
export function storeLanguage(lang: Language): void {
  write(STORAGE_KEYS.lang, lang);
  shareLanguage(lang);
}

/** The chosen language in the `lang` cookie, for a year (a choice made before the cookie existed too). */
export function shareLanguage(lang: Language): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${STORAGE_KEYS.lang}=${lang}; Path=/; Max-Age=${365 * 24 * 3600}; SameSite=Lax`;
}

export function getToken(): string | null {
  return read(STORAGE_KEYS.token) || null;
}

export interface Session {
  token: string | null;
  userInfo: UserInfo | null;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let cachedRaw: [string | null, string | null] | null = null;
let cachedSession: Session = { token: null, userInfo: null };

function parseUserInfo(raw: string | null): UserInfo | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' ? (value as UserInfo) : null;
  } catch {
    return null;
  }
}

/** A stable snapshot of the stored session, for useSyncExternalStore. */
export function getSession(): Session {
  const token = getToken();
  const rawUser = read(STORAGE_KEYS.userInfo);
  if (!cachedRaw || cachedRaw[0] !== token || cachedRaw[1] !== rawUser) {
    cachedRaw = [token, rawUser];
    cachedSession = { token, userInfo: parseUserInfo(rawUser) };
  }
  return cachedSession;
}

function notify(): void {
  listeners.forEach((listener) => listener());
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  // Another tab logging in or out changes this tab too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === STORAGE_KEYS.token || event.key === STORAGE_KEYS.userInfo) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function saveSession(token: string, userInfo: UserInfo | null): void {
  write(STORAGE_KEYS.token, token);
  write(STORAGE_KEYS.userInfo, userInfo ? JSON.stringify(userInfo) : null);
  notify();
}

export function saveUserInfo(userInfo: UserInfo): void {
  write(STORAGE_KEYS.userInfo, JSON.stringify(userInfo));
  notify();
}

export function clearSession(): void {
  write(STORAGE_KEYS.token, null);
  write(STORAGE_KEYS.userInfo, null);
  notify();
}
