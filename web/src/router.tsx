// The client routes of CONTRACT §8 on the history API: the server answers the app's HTML at each of
// them, so a link, a reload and the back button all land on the same view.
import type { ComponentChildren, PartialAnchorHTMLAttributes, TargetedMouseEvent } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** A screen of the app and the parameters its path names. */
export type Route =
  | { name: 'home' }
  | { name: 'bins' }
  | { name: 'bin'; binId: string }
  | { name: 'request'; binId: string; requestId: string }
  | { name: 'mocks' }
  | { name: 'mock'; mockId: string }
  | { name: 'tools' }
  | { name: 'tool'; tool: string }
  | { name: 'account' }
  | { name: 'not-found' };

/** One row per client route: its path, `:name` segments being parameters. */
const ROUTES: { pattern: string; name: Route['name'] }[] = [
  { pattern: '/', name: 'home' },
  { pattern: '/bins', name: 'bins' },
  { pattern: '/bins/:binId', name: 'bin' },
  { pattern: '/bins/:binId/requests/:requestId', name: 'request' },
  { pattern: '/mocks', name: 'mocks' },
  { pattern: '/mocks/:mockId', name: 'mock' },
  { pattern: '/tools', name: 'tools' },
  { pattern: '/tools/:tool', name: 'tool' },
  { pattern: '/account', name: 'account' },
];

/**
 * The route of a path; a path no row matches (or with a malformed escape) is `not-found`.
 *
 * @example
 *   matchRoute('/bins/bin_x/requests/req_y') // { name: 'request', binId: 'bin_x', requestId: 'req_y' }
 */
export function matchRoute(pathname: string): Route {
  const segments = pathname.split('/').slice(1);
  for (const { pattern, name } of ROUTES) {
    const parts = pattern.split('/').slice(1);
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = parts.every((part, i) => {
      if (!part.startsWith(':')) return part === segments[i];
      if (segments[i] === '') return false;
      try {
        params[part.slice(1)] = decodeURIComponent(segments[i]);
        return true;
      } catch {
        return false;
      }
    });
    if (matches) return { name, ...params } as Route;
  }
  return { name: 'not-found' };
}

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
window.addEventListener('popstate', notify);

/**
 * Go to `to` (a path of this app, query allowed) without reloading; `replace` rewrites the current
 * history entry instead of adding one.
 *
 * @example
 *   navigate(`/bins/${bin.bin_id}`);
 */
export function navigate(to: string, { replace = false } = {}): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.scrollTo(0, 0);
  notify();
}

/** Re-render on every navigation (links, `navigate`, back and forward). */
function useLocationChanges(): void {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const listener = () => setVersion((n) => n + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
}

/** The route of the current address. */
export function useRoute(): Route {
  useLocationChanges();
  return matchRoute(location.pathname);
}

/** The query of the current address, e.g. `useQuery().get('q')`. */
export function useQuery(): URLSearchParams {
  useLocationChanges();
  return new URLSearchParams(location.search);
}

type LinkProps = Omit<PartialAnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'role'> & { href: string; children?: ComponentChildren };

/**
 * A link to a view of the app: a plain click navigates in place, a click with a modifier (new tab,
 * new window) is left to the browser.
 *
 * @example
 *   <Link href="/mocks">Mocks</Link>
 */
export function Link({ href, onClick, children, ...rest }: LinkProps) {
  const follow = (event: TargetedMouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={follow} {...rest}>
      {children}
    </a>
  );
}
