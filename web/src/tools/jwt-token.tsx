// The JWT page's token pieces: the token box (a textarea over a coloured copy of its text), a
// read-only coloured token, and a decoded token (header, payload, times, signature).
import { useNow } from '../components/relative-time';
import { cleanToken, timeClaimsOf, tokenParts } from './jwt-claims';
import type { FieldSpec } from './types';

const PART_NAMES = { header: 'Header', payload: 'Payload', signature: 'Signature' } as const;

/** The token's parts as coloured spans (text nodes only). */
function ColouredToken({ token }: { token: string }) {
  return (
    <>
      {tokenParts(token).map((part, i) => (
        <span key={i} class={`jwt-part jwt-${part.kind}`}>
          {part.text}
        </span>
      ))}
    </>
  );
}

/** What each colour means. */
export function TokenLegend() {
  return (
    <ul class="jwt-legend" aria-label="Token parts">
      {(['header', 'payload', 'signature'] as const).map((kind) => (
        <li key={kind} class={`jwt-${kind}`}>
          {PART_NAMES[kind]}
        </li>
      ))}
    </ul>
  );
}

export interface TokenBoxProps {
  field: FieldSpec;
  id: string;
  value: string;
  error?: string;
  /** The line under the box. */
  hint: string;
  onChange(token: string): void;
}

/**
 * The token's textarea, its header, payload and signature coloured as you type: the text area's own
 * text is transparent over a copy of it in coloured spans, both in one grid cell so they wrap alike.
 */
export function TokenBox({ field, id, value, error, hint, onChange }: TokenBoxProps) {
  const errorId = error ? `${id}-error` : undefined;
  const hintId = `${id}-hint`;
  return (
    <div class="tool-field jwt-token-field">
      <span class="tool-label">
        <label for={id}>{field.label}</label>
        {field.required && (
          <span class="tool-required" aria-hidden="true">
            required
          </span>
        )}
      </span>
      <div class="jwt-token-box">
        <div class="jwt-token-mirror" aria-hidden="true">
          <ColouredToken token={value} />
          {/* A last line always takes its height, as the textarea's does. */}
          {'\u200b'}
        </div>
        <textarea
          id={id}
          value={value}
          spellcheck={false}
          autoComplete="off"
          placeholder="eyJhbGciOi…"
          aria-describedby={[errorId, hintId].filter(Boolean).join(' ')}
          aria-invalid={error ? 'true' : undefined}
          aria-required={field.required ? 'true' : undefined}
          onInput={(e) => onChange(cleanToken(e.currentTarget.value))}
        />
      </div>
      {errorId && (
        <p id={errorId} class="tool-field-error">
          {error}
        </p>
      )}
      <p id={hintId} class="hint">
        {hint}
      </p>
    </div>
  );
}

/** A token shown read-only, coloured like the token box. */
export function TokenView({ token }: { token: string }) {
  return (
    <p class="jwt-token-view">
      <ColouredToken token={token} />
    </p>
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** The time claims of a payload as dates, each with what it means now ("expired 3 minutes ago"). */
export function TimeClaims({ payload }: { payload: Record<string, unknown> }) {
  const now = useNow(1000);
  const claims = timeClaimsOf(payload, now);
  if (claims.length === 0) return null;
  return (
    <dl class="jwt-times">
      {claims.map(({ claim, name, at, iso, status }) => (
        <div key={claim} class="jwt-time">
          <dt>
            {name} <code>{claim}</code>
          </dt>
          <dd>
            <time dateTime={iso} title={`${at} = ${iso}`}>
              {dateFormat.format(at * 1000)}
            </time>{' '}
            <span class={`jwt-time-status jwt-${status.tone}`}>{status.text}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A decoded token as the API answered it: header, payload with its times, and signature. */
export function DecodedToken({ header, payload, signature }: { header: unknown; payload: unknown; signature?: string }) {
  const claims = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
  return (
    <div class="jwt-decoded">
      <section class="jwt-section jwt-section-header" aria-labelledby="jwt-decoded-header">
        <h3 id="jwt-decoded-header">Header</h3>
        <pre class="tool-code jwt-json" tabIndex={0}>
          {json(header)}
        </pre>
      </section>
      <section class="jwt-section jwt-section-payload" aria-labelledby="jwt-decoded-payload">
        <h3 id="jwt-decoded-payload">Payload</h3>
        <pre class="tool-code jwt-json" tabIndex={0}>
          {json(payload)}
        </pre>
        <TimeClaims payload={claims} />
      </section>
      {signature !== undefined && (
        <section class="jwt-section jwt-section-signature" aria-labelledby="jwt-decoded-signature">
          <h3 id="jwt-decoded-signature">Signature</h3>
          <code class="tool-value jwt-signature-value">{signature === '' ? '(empty)' : signature}</code>
        </section>
      )}
    </div>
  );
}
