// Under every tool: "Share" (with a warning when the inputs hold secrets), the raw JSON answer, the
// equivalent curl command and what the last call cost.
import { useState } from 'preact/hooks';
import { copyText, CopyButton } from '../components/copy-button';
import { useSession } from '../session';
import { curlOf } from './call';
import type { ToolPageState } from './runner';
import { shareFragment } from './share';

function creditsText(credits: ToolPageState['credits'], unlimited: boolean): string {
  if (credits === null) return '';
  const value = credits.value;
  if (value === null) return unlimited ? 'This key has no credit limit.' : 'This call used no credits.';
  const left = `${value.remaining} of ${value.limit} credits left this month.`;
  if (value.cost === null) return left;
  return `This call cost ${value.cost} ${value.cost === 1 ? 'credit' : 'credits'}. ${left}`;
}

export function ToolBar({ page }: { page: ToolPageState }) {
  const { account } = useSession();
  const { props, preparation, credits } = page;
  const [warning, setWarning] = useState(false);
  const [status, setStatus] = useState('');
  const secrets = props.fields.filter((f) => f.secret && props.inputs[f.name] !== '' && props.inputs[f.name] !== false);

  const share = (withSecrets: boolean) => {
    setWarning(false);
    const inputs = withSecrets ? props.inputs : { ...props.inputs, ...Object.fromEntries(secrets.map((f) => [f.name, ''])) };
    history.replaceState(history.state, '', location.pathname + location.search + shareFragment({ operation: props.operation.id, inputs }));
    copyText(location.href).then(
      () => setStatus('Link copied: it is also in the address bar.'),
      () => setStatus('The link is in the address bar.'),
    );
  };
  const outcome = props.call.outcome;
  const request = preparation.request;

  return (
    <div class="tool-bar">
      <div class="tool-share">
        <button
          type="button"
          class="secondary"
          aria-expanded={secrets.length > 0 ? warning : undefined}
          onClick={() => (secrets.length > 0 ? setWarning(true) : share(true))}
        >
          Share
        </button>
        <span class="copy-status" role="status">
          {status}
        </span>
      </div>
      {warning && (
        <div class="tool-share-warning" role="alert">
          <p>
            These inputs hold secrets ({secrets.map((f) => f.label).join(', ')}). A link carries them in plain text to anyone who gets it,
            and into their browser history; the part after # is never sent to the server.
          </p>
          <div class="tool-share-actions">
            <button type="button" class="danger" onClick={() => share(true)}>
              Share with secrets
            </button>
            <button type="button" class="secondary" onClick={() => share(false)}>
              Share without secrets
            </button>
            <button type="button" class="secondary" onClick={() => setWarning(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <details class="tool-raw">
        <summary>Raw JSON</summary>
        {outcome ? (
          <>
            <pre class="tool-code" tabIndex={0}>
              {JSON.stringify(outcome.result, null, 2)}
            </pre>
            <CopyButton label="Copy JSON" text={() => JSON.stringify(outcome.result, null, 2)} />
          </>
        ) : (
          <p class="hint">No answer yet.</p>
        )}
      </details>
      <details class="tool-curl">
        <summary>curl</summary>
        {request ? (
          <>
            <pre class="tool-code" tabIndex={0}>
              {curlOf(request, location.origin)}
            </pre>
            <CopyButton label="Copy curl command" text={() => curlOf(request, location.origin)} />
            <p class="hint">
              Set <code>DEVUTIL_KEY</code> to your API key first.
            </p>
          </>
        ) : (
          <p class="hint">Fill in the required fields to see the command.</p>
        )}
      </details>
      <p class="tool-credits" role="status">
        {creditsText(credits, account.credits.limit === null)}
      </p>
    </div>
  );
}
