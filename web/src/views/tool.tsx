// One tool's page: heading and description, a tab per operation, the form and the result (generic,
// or the tool's own renderer), and the bar with "Share", "Raw JSON", "curl" and the credits.
import type { ComponentType } from 'preact';
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { Link } from '../router';
import { GenericForm, Prose } from '../tools/form';
import { toolBySlug } from '../tools/registry';
import { GenericResult } from '../tools/result';
import { useToolPage } from '../tools/runner';
import { rememberTool } from '../tools/search';
import { readShareFragment } from '../tools/share';
import { ToolBar } from '../tools/toolbar';
import type { ToolEntry, ToolPageProps } from '../tools/types';

/** The generic form beside the generic result. */
function GenericPanel(props: ToolPageProps) {
  const { call, operation, fields } = props;
  const labels = call.missing.map((name) => fields.find((f) => f.name === name)?.label ?? name);
  let content;
  if (call.outcome && !call.error) content = <GenericResult value={call.outcome.result} />;
  else if (call.error) content = <p class="hint">No result: see the error.</p>;
  else if (operation.mode === 'live' && labels.length > 0) content = <p class="hint">Fill in {labels.join(', ')} to see the result.</p>;
  else if (call.busy) content = <p class="hint">Working…</p>;
  else content = <p class="hint">Press Run to see the result.</p>;
  return (
    <div class="tool-columns">
      <GenericForm {...props} />
      <section class="tool-result" aria-labelledby="tool-result-heading" aria-busy={call.busy ? 'true' : undefined}>
        <div class="tool-result-head">
          <h2 id="tool-result-heading">Result</h2>
          {call.busy && <span class="hint">Updating…</span>}
        </div>
        {content}
      </section>
    </div>
  );
}

function Tabs({ tool, selected, onSelect }: { tool: ToolEntry; selected: string; onSelect(id: string): void }) {
  const ids = tool.operations.map((o) => o.id);
  const move = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = ids[(ids.indexOf(selected) + step + ids.length) % ids.length];
    onSelect(next);
    document.getElementById(`tool-tab-${next}`)?.focus();
  };
  return (
    <div class="tool-tabs" role="tablist" aria-label="Operations" onKeyDown={move}>
      {tool.operations.map((o) => (
        <button
          key={o.id}
          type="button"
          role="tab"
          id={`tool-tab-${o.id}`}
          aria-selected={o.id === selected}
          aria-controls="tool-panel"
          tabIndex={o.id === selected ? 0 : -1}
          onClick={() => onSelect(o.id)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

function ToolPage({ tool }: { tool: ToolEntry }) {
  const [restored] = useState(() => readShareFragment(location.hash));
  const page = useToolPage(tool, restored);
  const { props } = page;
  const [Renderer, setRenderer] = useState<ComponentType<ToolPageProps> | null>(null);
  const [rendererFailed, setRendererFailed] = useState(false);

  // Remembered as the page is committed, before it is painted: a search opened at once lists it first.
  useLayoutEffect(() => rememberTool(tool.slug), []);
  useEffect(() => {
    tool.render?.().then(
      (module) => setRenderer(() => module.default),
      () => setRendererFailed(true),
    );
  }, []);

  const error = props.call.error;
  const topError = error && (Object.keys(error.fieldErrors).length === 0 || error.code === 'credits_exhausted') ? error : null;
  const tabbed = tool.operations.length > 1;
  const panel =
    tool.render && !rendererFailed ? (
      Renderer ? (
        <Renderer {...props} />
      ) : (
        <p class="hint" aria-busy="true">
          Loading…
        </p>
      )
    ) : (
      <GenericPanel {...props} />
    );

  return (
    <article class="tool-page">
      <p class="tool-breadcrumb">
        <Link href="/tools">All tools</Link>
      </p>
      <h1>{tool.name}</h1>
      <p class="tool-description">{tool.description}</p>
      {tabbed && <Tabs tool={tool} selected={props.operation.id} onSelect={props.selectOperation} />}
      <div
        class="tool-panel"
        id="tool-panel"
        role={tabbed ? 'tabpanel' : undefined}
        aria-labelledby={tabbed ? `tool-tab-${props.operation.id}` : undefined}
      >
        <p class="hint tool-operation-description">
          <Prose text={props.operation.description} />
        </p>
        {topError && (
          <div class="error" role="alert">
            {topError.code === 'credits_exhausted' && <strong>Your credits have run out. </strong>}
            {topError.detail}
          </div>
        )}
        {panel}
        <ToolBar page={page} />
      </div>
      <section class="tool-api" aria-labelledby="tool-api-heading">
        <h2 id="tool-api-heading">API operations</h2>
        <ul>
          {tool.operations.map((o) => (
            <li key={o.id}>
              <code>
                {o.method.toUpperCase()} {o.path}
              </code>
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}

/** The page of the tool `/tools/{tool}`; its main heading is the tool's name (CONTRACT §8). */
export function ToolView({ tool: slug }: { tool: string }) {
  const tool = toolBySlug(slug);
  useEffect(() => {
    document.title = `${tool?.name ?? 'Tool not found'} · devutil`;
  }, [tool]);
  if (tool === undefined)
    return (
      <section>
        <h1>Tool not found</h1>
        <p>
          There is no tool named “{slug}”. See <Link href="/tools">all tools</Link>.
        </p>
      </section>
    );
  return <ToolPage key={tool.slug} tool={tool} />;
}
