import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, createApiClient } from './api';
import { useRoute } from './router';
import { forgetKey, SessionContext, storedKey, storeKey, takeKeyFromFragment, type Session } from './session';
import { Shell } from './shell';
import { SignIn } from './views/sign-in';

type State =
  | { status: 'checking' }
  /** `retry`: a key that was not refused but could not be checked (rate limit, network), to try again. */
  | { status: 'signed-out'; error: string | null; busy: boolean; retry?: { key: string; stored: boolean } }
  /** `refusedLink`: why the key of a `#key=` link opened while signed in was refused (the session stays). */
  | { status: 'signed-in'; session: Session; refusedLink?: string };

function messageOf(err: unknown): string {
  return err instanceof ApiError ? err.detail : `Something went wrong: ${String(err)}`;
}

/**
 * The whole app: signs in with the key of a `/#key=` link, else the stored one, else the form's;
 * then the shell. A key is stored only once GET /v1/account has accepted it.
 */
export function App() {
  const [state, setState] = useState<State>({ status: 'checking' });
  const route = useRoute();
  // Only the latest sign-in applies its answer: a link's key checked while the stored one still is wins.
  const attempts = useRef(0);

  const signOut = () => {
    forgetKey();
    setState({ status: 'signed-out', error: null, busy: false });
  };
  const signIn = async (key: string, { stored }: { stored: boolean }) => {
    const attempt = ++attempts.current;
    setState((s) => (s.status === 'signed-out' ? { ...s, busy: true } : s));
    const api = createApiClient(key);
    try {
      const account = await api.get('/v1/account');
      if (attempt !== attempts.current) return;
      storeKey(key);
      setState({ status: 'signed-in', session: { api, account, signOut } });
    } catch (err) {
      if (attempt !== attempts.current) return;
      // A stored key that is refused (revoked, rotated) is dropped; one unchecked for want of a network is kept.
      if (stored && err instanceof ApiError && err.status === 401) forgetKey();
      // A key not refused (429, network, 5xx) was not judged: it can be tried again as it is.
      const refused = err instanceof ApiError && err.status === 401;
      // A link's key refused while signed in leaves the session as it was, with the reason on top.
      setState((s) =>
        !stored && s.status === 'signed-in'
          ? { ...s, refusedLink: messageOf(err) }
          : { status: 'signed-out', error: messageOf(err), busy: false, ...(refused ? {} : { retry: { key, stored } }) },
      );
    }
  };

  useEffect(() => {
    const fromLink = takeKeyFromFragment();
    const key = fromLink ?? storedKey();
    if (key === null) setState({ status: 'signed-out', error: null, busy: false });
    else void signIn(key, { stored: fromLink === null });
    // A `#key=` link opened in a tab already on the app changes only the fragment: no reload, so sign in here.
    const onHashChange = () => {
      const linked = takeKeyFromFragment();
      if (linked !== null) void signIn(linked, { stored: false });
    };
    addEventListener('hashchange', onHashChange);
    return () => removeEventListener('hashchange', onHashChange);
  }, []);

  switch (state.status) {
    case 'checking':
      return (
        <main class="sign-in" aria-busy="true">
          <p>Signing in…</p>
        </main>
      );
    case 'signed-out': {
      const { retry } = state;
      return (
        <SignIn
          error={state.error}
          busy={state.busy}
          onSignIn={(key) => void signIn(key, { stored: false })}
          onRetry={retry && (() => void signIn(retry.key, { stored: retry.stored }))}
        />
      );
    }
    case 'signed-in':
      return (
        <SessionContext value={state.session}>
          {state.refusedLink !== undefined && (
            <div class="error link-refused" role="alert">
              <p>The key in the link was refused: {state.refusedLink} You are still signed in with your own key.</p>
              <button type="button" class="secondary" onClick={() => setState({ status: 'signed-in', session: state.session })}>
                Dismiss
              </button>
            </div>
          )}
          <Shell route={route} />
        </SessionContext>
      );
  }
}
