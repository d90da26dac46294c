import { useState } from 'preact/hooks';

export interface SignInProps {
  /** The API's `detail` for the last key tried, if it was refused. */
  error: string | null;
  /** A key is being checked. */
  busy: boolean;
  onSignIn(key: string): void;
  /** Check again the key that could not be checked (the service was busy or out of reach), when there is one. */
  onRetry?: (() => void) | undefined;
}

/** The sign-in form of CONTRACT §8: one field, "API key", checked by the app with GET /v1/account. */
export function SignIn({ error, busy, onSignIn, onRetry }: SignInProps) {
  const [key, setKey] = useState('');
  return (
    <main class="sign-in">
      <h1>devutil</h1>
      <form
        class="card"
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim() !== '') onSignIn(key.trim());
        }}
      >
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          required
          placeholder="dk_…"
          value={key}
          onInput={(event) => setKey(event.currentTarget.value)}
          aria-describedby={error === null ? 'api-key-hint' : 'api-key-error'}
        />
        {error !== null && (
          <p id="api-key-error" class="error" role="alert">
            {error}
          </p>
        )}
        {onRetry && (
          <button type="button" class="secondary" disabled={busy} onClick={onRetry}>
            Try again with the same key
          </button>
        )}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <p id="api-key-hint" class="hint">
          The service prints a key on its first start (<code>API key: dk_…</code>), with a link that signs in with it.
        </p>
      </form>
    </main>
  );
}
