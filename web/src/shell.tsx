import { useEffect } from 'preact/hooks';
import { Link, navigate, type Route } from './router';
import { useSession } from './session';
import { AccountView } from './views/account';
import { BinView } from './views/bin';
import { BinsView } from './views/bins';
import { MockView } from './views/mock';
import { MocksView } from './views/mocks';
import { NotFoundView } from './views/not-found';
import { ToolView, ToolsView } from './tools/lazy';
import { ToolPalette } from './tools/palette';

/** The sections of the navigation, each with the routes that belong to it. */
const SECTIONS: { href: string; label: string; routes: Route['name'][] }[] = [
  { href: '/bins', label: 'Bins', routes: ['home', 'bins', 'bin', 'request'] },
  { href: '/mocks', label: 'Mocks', routes: ['mocks', 'mock'] },
  { href: '/tools', label: 'Tools', routes: ['tools', 'tool'] },
  { href: '/account', label: 'Account', routes: ['account'] },
];

function viewOf(route: Route) {
  switch (route.name) {
    case 'home':
    case 'bins':
      return <BinsView />;
    // One BinView for both routes (same element type and key), so selecting a request keeps the live list.
    case 'bin':
      return <BinView key={route.binId} binId={route.binId} />;
    case 'request':
      return <BinView key={route.binId} binId={route.binId} requestId={route.requestId} />;
    case 'mocks':
      return <MocksView />;
    case 'mock':
      return <MockView mockId={route.mockId} />;
    case 'tools':
      return <ToolsView />;
    case 'tool':
      return <ToolView tool={route.tool} />;
    case 'account':
      return <AccountView />;
    case 'not-found':
      return <NotFoundView />;
  }
}

/** The signed-in app: the header with the navigation and "Sign out", and the view of the route. */
export function Shell({ route }: { route: Route }) {
  const { signOut } = useSession();
  const section = SECTIONS.find((s) => s.routes.includes(route.name));

  useEffect(() => {
    // The app opens on the bins, as the address printed at first start is the bare origin.
    if (route.name === 'home') navigate('/bins', { replace: true });
    // A tool's page names its tool itself (web/src/views/tool.tsx).
    if (route.name !== 'tool') document.title = section ? `${section.label} · devutil` : 'Page not found · devutil';
  }, [route.name, section]);

  return (
    <>
      <header class="app-header">
        <Link class="brand" href="/bins">
          devutil
        </Link>
        <nav aria-label="Main">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.href}>
                <Link href={s.href} aria-current={s === section ? 'page' : undefined}>
                  {s.label}
                </Link>
              </li>
            ))}
            <li>
              <a href="/docs">API docs</a>
            </li>
          </ul>
        </nav>
        <button type="button" class="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main">{viewOf(route)}</main>
      <ToolPalette />
    </>
  );
}
