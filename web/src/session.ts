// The signed-in key: kept in this origin's localStorage (CONTRACT §8), read once at start, and the
// context through which views reach the API client and the account.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient, ApiResult } from './api';

/** The answer of `GET /v1/account`, which checks a key at sign-in. */
export type Account = ApiResult<'get', '/v1/account'>;

const STORAGE_KEY = 'devutil.apiKey';

/** The key saved by the last sign-in, if the browser lets this page read storage. */
export function storedKey(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function storeKey(key: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Storage refused (private mode, quota): the session lasts until the tab closes.
  }
}

export function forgetKey(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing was stored.
  }
}

/**
 * The key of a `/#key=<key>` link (the address the service prints on first start), removed from the
 * address bar and the history entry so it is not left on screen or shared by a copied URL.
 *
 * @example
 *   // at https://devutil.example/#key=dk_abc
 *   takeKeyFromFragment() // 'dk_abc', and location.href is now https://devutil.example/
 */
export function takeKeyFromFragment(): string | null {
  if (!location.hash.startsWith('#')) return null;
  const key = new URLSearchParams(location.hash.slice(1)).get('key');
  if (key === null) return null;
  history.replaceState(history.state, '', location.pathname + location.search);
  return key.trim() === '' ? null : key.trim();
}

export interface Session {
  api: ApiClient;
  account: Account;
  signOut(): void;
}

export const SessionContext = createContext<Session | null>(null);

/**
 * The signed-in session, for views (which render only inside the signed-in shell).
 *
 * @example
 *   const { api } = useSession();
 *   const bins = await api.get('/v1/bins');
 */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession() is used outside the signed-in app');
  return session;
}
