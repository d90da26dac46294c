import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, createApiClient } from './api';
import { useRoute } from './router';
import { forgetKey, SessionContext, storedKey, storeKey, takeKeyFromFragment, type Session } from './session';
import { Shell } from './shell';
import { SignIn } from './views/sign-in';

/** Where a key to check comes from: the browser's storage, a `#key=` link, or the sign-in form. */
type KeySource = 'stored' | 'link' | 'form';

type State =
  | { status: 'checking' }
  /** `retry`: a key that was not refused but could not be checked (rate limit, network), to try again. */
  | { status: 'signed-out'; error: string | null; busy: boolean; retry?: { key: string; source: KeySource } }
  /** `linkNote`: why the key of a `#key=` link was not taken (the session goes on with the key it had). */
  | { status: 'signed-in'; session: Session; linkNote?: string };

function messageOf(err: unknown): string {
  return err instanceof ApiError ? err.detail : `Something went wrong: ${String(err)}`;
}

/**
 * The whole app: signs in with the key of a `/#key=` link, else the stored one, else the form's;
 * then the shell. A key is stored only once GET /v1/account has accepted it.
 */
export function App() {
  const [state, setState] = useState<State>({ status: 'checking' });
  const current = useRef(state);
  current.current = state;
  const route = useRoute();
  // Only the latest sign-in (or sign-out) applies: a link's key checked while the stored one still is wins.
  const attempts = useRef(0);

  const signOut = () => {
    attempts.current++;
    forgetKey();
    setState({ status: 'signed-out', error: null, busy: false });
  };
  const signIn = async (key: string, source: KeySource, linkNote?: string) => {
    const attempt = ++attempts.current;
    setState((s) => (s.status === 'signed-out' ? { ...s, busy: true } : s));
    const api = createApiClient(key);
    try {
      const account = await api.get('/v1/account');
      if (attempt !== attempts.current) return;
      storeKey(key);
      setState({ status: 'signed-in', session: { api, account, signOut }, ...(linkNote === undefined ? {} : { linkNote }) });
    } catch (err) {
      if (attempt !== attempts.current) return;
      // A key not refused (429, network, 5xx) was not judged: it is kept, and can be tried again as it is.
      const refused = err instanceof ApiError && err.status === 401;
      // A stored key that is refused (revoked, rotated) is dropped.
      if (source === 'stored' && refused) forgetKey();
      if (source === 'link') {
        const note = `The key in the link ${refused ? 'was refused' : 'could not be checked'}: ${messageOf(err)}`;
        // The session goes on with the key it had; else with the stored one, if there is one.
        const now = current.current;
        if (now.status === 'signed-in') return setState({ ...now, linkNote: note });
        const fallback = storedKey();
        if (fallback !== null && fallback !== key) return void signIn(fallback, 'stored', note);
      }
      setState({ status: 'signed-out', error: messageOf(err), busy: false, ...(refused ? {} : { retry: { key, source } }) });
    }
  };

  useEffect(() => {
    const fromLink = takeKeyFromFragment();
    const key = fromLink ?? storedKey();
    if (key === null) setState({ status: 'signed-out', error: null, busy: false });
    else void signIn(key, fromLink === null ? 'stored' : 'link');
    // A `#key=` link opened in a tab already on the app changes only the fragment: no reload, so sign in here.
    const onHashChange = () => {
      const linked = takeKeyFromFragment();
      if (linked !== null) void signIn(linked, 'link');
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
          onSignIn={(key) => void signIn(key, 'form')}
          onRetry={retry && (() => void signIn(retry.key, retry.source))}
        />
      );
    }
    case 'signed-in':
      return (
        <SessionContext value={state.session}>
          {state.linkNote !== undefined && (
            <div class="error link-refused" role="alert">
              <p>{state.linkNote} You are still signed in with your own key.</p>
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
