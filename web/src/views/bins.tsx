import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type ApiResult, type FieldError } from '../api';
import { CopyButton } from '../components/copy-button';
import { RelativeTime } from '../components/relative-time';
import { Link, navigate } from '../router';
import { useSession } from '../session';
import { catchUrlOf } from './bin-header';

type Bin = ApiResult<'get', '/v1/bins'>['bins'][number];

/** Bins per page of the list, the API's largest. */
const PAGE_SIZE = 200;

/** The lifetimes offered for a new bin, within the API's 60..172800 s. */
const LIFETIMES: { seconds: number; label: string }[] = [
  { seconds: 600, label: '10 minutes' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 6 * 3600, label: '6 hours' },
  { seconds: 12 * 3600, label: '12 hours' },
  { seconds: 86400, label: '1 day' },
  { seconds: 172800, label: '2 days' },
];
const DEFAULT_LIFETIME = 86400;

/** The API's message for `field`, from the `errors[]` of a validation failure. */
function fieldMessage(errors: FieldError[], field: string): string | undefined {
  return errors.find((e) => e.path.replace(/^\//, '') === field)?.message;
}

/** The "New bin" form: name and lifetime; the API validates, and its field errors show beside the fields. */
function NewBinForm({ onCancel }: { onCancel(): void }) {
  const { api } = useSession();
  const [name, setName] = useState('');
  const [ttl, setTtl] = useState(DEFAULT_LIFETIME);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const nameField = useRef<HTMLInputElement>(null);
  const ttlField = useRef<HTMLSelectElement>(null);
  const nameError = error ? fieldMessage(error.errors, 'name') : undefined;
  const ttlError = error ? fieldMessage(error.errors, 'ttl_seconds') : undefined;

  useEffect(() => nameField.current?.focus(), []);
  // The first field the API refused takes the focus, so its message (its description) is read out.
  useEffect(() => {
    if (nameError) nameField.current?.focus();
    else if (ttlError) ttlField.current?.focus();
  }, [error]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { bin } = await api.post('/v1/bins', { body: { name: name.trim() === '' ? undefined : name, ttl_seconds: ttl } });
      navigate(`/bins/${encodeURIComponent(bin.bin_id)}`);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, { detail: String(err), code: 'unexpected_error' }));
      setBusy(false);
    }
  };

  return (
    <form class="new-bin card" aria-label="New bin" onSubmit={(e) => void submit(e)} noValidate>
      <div class="field">
        <label for="new-bin-name">Name</label>
        <input
          id="new-bin-name"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          aria-invalid={nameError ? 'true' : undefined}
          aria-describedby={nameError ? 'new-bin-name-error' : 'new-bin-name-hint'}
          ref={nameField}
        />
        {nameError ? (
          <p id="new-bin-name-error" class="field-error">
            {nameError}
          </p>
        ) : (
          <p id="new-bin-name-hint" class="hint">
            Optional, at most 128 characters.
          </p>
        )}
      </div>
      <div class="field">
        <label for="new-bin-ttl">Lifetime</label>
        <select
          id="new-bin-ttl"
          ref={ttlField}
          value={String(ttl)}
          onChange={(e) => setTtl(Number(e.currentTarget.value))}
          aria-invalid={ttlError ? 'true' : undefined}
          aria-describedby={ttlError ? 'new-bin-ttl-error' : undefined}
        >
          {LIFETIMES.map((l) => (
            <option key={l.seconds} value={String(l.seconds)}>
              {l.label}
            </option>
          ))}
        </select>
        {ttlError && (
          <p id="new-bin-ttl-error" class="field-error">
            {ttlError}
          </p>
        )}
      </div>
      {error && !nameError && !ttlError && (
        <p class="error" role="alert">
          {error.detail}
        </p>
      )}
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create bin'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function BinItem({ bin, onDelete }: { bin: Bin; onDelete(bin: Bin): void }) {
  const url = catchUrlOf(bin);
  const title = bin.name || 'Untitled bin';
  return (
    <li class="bin-item card">
      <h2>
        <Link href={`/bins/${encodeURIComponent(bin.bin_id)}`}>{title}</Link>
      </h2>
      <div class="bin-url">
        <code>{url}</code>
        <CopyButton label="Copy URL" text={url} />
      </div>
      <p class="bin-meta hint">
        {bin.request_count} {bin.request_count === 1 ? 'request' : 'requests'} · created <RelativeTime iso={bin.created_at} /> · expires{' '}
        <RelativeTime iso={bin.expires_at} />
      </p>
      <button type="button" class="danger" onClick={() => onDelete(bin)}>
        Delete<span class="visually-hidden"> bin {title}</span>
      </button>
    </li>
  );
}

/** The key's bins, newest first, with "New bin" and each bin's catch URL (route `/bins`). */
export function BinsView() {
  const { api } = useSession();
  const [bins, setBins] = useState<Bin[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const load = async (offset: number) => {
    try {
      const page = await api.get('/v1/bins', { query: { limit: PAGE_SIZE, offset } });
      setBins((known) => (offset === 0 || known === null ? page.bins : [...known, ...page.bins]));
      setTotal(page.total);
      setError(null);
    } catch (err) {
      setError(err instanceof ApiError ? err.detail : String(err));
    }
  };

  useEffect(() => void load(0), [api]);

  const remove = async (bin: Bin) => {
    if (!window.confirm(`Delete the bin ${bin.name || bin.bin_id} and its requests?`)) return;
    try {
      await api.delete('/v1/bins/{bin_id}', { path: { bin_id: bin.bin_id } });
      setBins((known) => known?.filter((b) => b.bin_id !== bin.bin_id) ?? null);
      setTotal((n) => n - 1);
    } catch (err) {
      setError(err instanceof ApiError ? err.detail : String(err));
    }
  };

  return (
    <section class="bins">
      <div class="bins-heading">
        <h1>Bins</h1>
        {!creating && (
          <button type="button" onClick={() => setCreating(true)}>
            New bin
          </button>
        )}
      </div>
      <p class="hint">A bin captures every request sent to its catch URL, for you to inspect and replay.</p>
      {creating && <NewBinForm onCancel={() => setCreating(false)} />}
      {error !== null && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {bins === null ? (
        error === null && <p aria-busy="true">Loading bins…</p>
      ) : bins.length === 0 ? (
        <div class="bins-empty card">
          <h2>No bins yet</h2>
          <p>Create a bin with "New bin", then point a webhook at its catch URL: each request it receives shows up live.</p>
        </div>
      ) : (
        <>
          <ul class="bin-list" aria-label="Your bins">
            {bins.map((bin) => (
              <BinItem key={bin.bin_id} bin={bin} onDelete={(b) => void remove(b)} />
            ))}
          </ul>
          {bins.length < total && (
            <p>
              <button type="button" class="secondary" onClick={() => void load(bins.length)}>
                Show more bins
              </button>
            </p>
          )}
        </>
      )}
    </section>
  );
}
