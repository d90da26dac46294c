// The JSON Schema page: schema and data side by side with a draft selector, "Valid" or the list of
// failures, each of which selects its field in the data; a schema inferred from the data fills the
// schema editor. The "Infer a schema" tab shows the inferred schema on its own.
import { useEffect, useRef, useState } from 'preact/hooks';
import { CopyButton } from '../components/copy-button';
import { FieldInput, fieldId } from './form';
import { locateJsonPath, pointerOf, type JsonPath } from './json-schema-json';
import { JsonView } from './json-schema-json-view';
import type { CallError, FieldSpec, ToolPageProps } from './types';
import './json-schema.css';

interface Failure {
  error: string;
  path: JsonPath;
  schema_path: string;
}

interface ValidateAnswer {
  valid: boolean;
  errors: Failure[];
}

const DRAFT_NAMES: Record<string, string> = { '4': 'Draft 4', '6': 'Draft 6', '7': 'Draft 7' };

function Field({ props, field }: { props: ToolPageProps; field: FieldSpec }) {
  const { operation, inputs, setInputs, call } = props;
  return (
    <FieldInput
      field={field}
      id={fieldId(operation.id, field.name)}
      value={inputs[field.name]}
      error={call.error?.fieldErrors[field.name]}
      onChange={(value) => setInputs((previous) => ({ ...previous, [field.name]: value }))}
    />
  );
}

function DraftSelect({ props, field }: { props: ToolPageProps; field: FieldSpec }) {
  const id = fieldId(props.operation.id, field.name);
  const error = props.call.error?.fieldErrors[field.name];
  return (
    <div class="tool-field tool-field-select">
      <span class="tool-label">
        <label for={id}>Draft</label>
      </span>
      <select
        id={id}
        value={String(props.inputs[field.name] ?? '')}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        aria-invalid={error ? 'true' : undefined}
        onChange={(e) => {
          const value = e.currentTarget.value;
          props.setInputs((previous) => ({ ...previous, [field.name]: value }));
        }}
      >
        <option value="">From $schema (else 2020-12)</option>
        {field.choices.map((draft) => (
          <option key={draft} value={draft}>
            {DRAFT_NAMES[draft] ?? `Draft ${draft}`}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} class="tool-field-error">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} class="hint">
          Overrides a standard <code>$schema</code>. <code>format</code> is asserted under drafts 4 to 7 only.
        </p>
      )}
    </div>
  );
}

/** Select the value at `path` in the data editor (CodeMirror once loaded, else its textarea) and focus it. */
async function selectInEditor(host: HTMLElement, path: JsonPath): Promise<boolean> {
  const editorHost = host.querySelector<HTMLElement>('.code-editor-host');
  const editor = editorHost && !editorHost.hidden ? editorHost.shadowRoot?.querySelector<HTMLElement>('.cm-editor') : null;
  if (editor) return (await import('./json-schema-highlight')).markPathInEditor(editor, path);
  const area = host.querySelector('textarea');
  const range = area && locateJsonPath(area.value, path);
  if (!area || !range) return false;
  area.focus();
  area.setSelectionRange(range.from, range.to);
  return true;
}

function Failures({ failures, dataHost }: { failures: Failure[]; dataHost: { current: HTMLElement | null } }) {
  /** The key of the failure whose field the data no longer holds. */
  const [missing, setMissing] = useState<string | null>(null);
  useEffect(() => setMissing(null), [failures]);
  return (
    <ol class="json-schema-errors">
      {failures.map((failure, i) => {
        const pointer = pointerOf(failure.path);
        // Keyed by what it names: a list that changes as it is clicked never reuses a button for another failure.
        const key = `${i} ${pointer} ${failure.schema_path}`;
        return (
          <li key={key}>
            <button
              type="button"
              class="json-schema-error"
              onClick={() => {
                if (dataHost.current === null) return;
                void selectInEditor(dataHost.current, failure.path).then((found) => setMissing(found ? null : key));
              }}
            >
              <code class="json-schema-path">{pointer === '' ? '(root)' : pointer}</code>
              <span class="json-schema-message">{failure.error}</span>
            </button>
            <span class="hint json-schema-rule">
              Schema rule <code>{failure.schema_path}</code>
              {missing === key && ' · this field is no longer in the data as edited'}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

function ValidatePanel(props: ToolPageProps) {
  const { fields, inputs, setInputs, call, send } = props;
  const byName = (name: string) => fields.find((f) => f.name === name);
  const dataHost = useRef<HTMLDivElement>(null);
  const [inferring, setInferring] = useState(false);
  const [inferError, setInferError] = useState<string | null>(null);

  const infer = () => {
    setInferError(null);
    try {
      JSON.parse(String(inputs.data));
    } catch (err) {
      setInferError(`Data is not valid JSON: ${(err as Error).message}`);
      return;
    }
    setInferring(true);
    send('infer', { data: inputs.data }).then(
      (outcome) => {
        setInferring(false);
        const schema = (outcome.result as { schema: unknown }).schema;
        setInputs((previous) => ({ ...previous, schema: JSON.stringify(schema, null, 2) }));
      },
      (err: CallError) => {
        setInferring(false);
        setInferError(err.fieldErrors.data ?? err.detail);
      },
    );
  };

  const answer = call.outcome?.result as ValidateAnswer | undefined;
  let content;
  if (answer && !call.error)
    content = (
      <>
        <p class={`json-schema-summary ${answer.valid ? 'json-schema-valid' : 'json-schema-invalid'}`} role="status">
          {answer.valid ? 'Valid' : `${answer.errors.length} ${answer.errors.length === 1 ? 'error' : 'errors'}`}
        </p>
        {!answer.valid && (
          <>
            <p class="hint">Select an error to select its field in the data.</p>
            <Failures failures={answer.errors} dataHost={dataHost} />
          </>
        )}
      </>
    );
  else if (call.error) content = <p class="hint">No result: see the error.</p>;
  else if (call.missing.length > 0) content = <p class="hint">Fill in the schema and the data to validate.</p>;
  else content = <p class="hint">Working…</p>;

  const draft = byName('draft');
  const assertFormat = byName('assert_format');
  const schemas = byName('schemas');
  return (
    <div class="json-schema-page">
      <div class="tool-columns">
        <div class="tool-form">
          <Field props={props} field={byName('schema')!} />
          <div class="json-schema-infer">
            <button
              type="button"
              class="secondary"
              disabled={inferring}
              onClick={infer}
              aria-describedby={inferError === null ? undefined : 'json-schema-infer-error'}
            >
              Infer schema from data
            </button>
            {inferring && <span class="hint">Inferring…</span>}
            {inferError !== null && (
              <p id="json-schema-infer-error" class="tool-field-error" role="alert">
                {inferError}
              </p>
            )}
          </div>
          {draft && <DraftSelect props={props} field={draft} />}
          {assertFormat && <Field props={props} field={assertFormat} />}
          {schemas && (
            <details class="tool-more" open={inputs.schemas !== '' || call.error?.fieldErrors.schemas !== undefined}>
              <summary>More options</summary>
              <Field props={props} field={schemas} />
            </details>
          )}
        </div>
        <div class="tool-form" ref={dataHost}>
          <Field props={props} field={byName('data')!} />
        </div>
      </div>
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

function InferPanel({ props, onUse }: { props: ToolPageProps; onUse(schema: string): void }) {
  const { fields, call } = props;
  const schema = (call.outcome?.result as { schema: unknown } | undefined)?.schema;
  const text = JSON.stringify(schema, null, 2);
  return (
    <div class="tool-columns json-schema-page">
      <div class="tool-form">
        <Field props={props} field={fields.find((f) => f.name === 'data')!} />
      </div>
      <section class="tool-result" aria-labelledby="tool-result-heading" aria-busy={call.busy ? 'true' : undefined}>
        <div class="tool-result-head">
          <h2 id="tool-result-heading">Inferred schema</h2>
          {call.busy && <span class="hint">Updating…</span>}
        </div>
        {schema !== undefined && !call.error ? (
          <>
            <JsonView value={schema} />
            <div class="json-schema-actions">
              <CopyButton label="Copy schema" text={text} />
              <button type="button" class="secondary" onClick={() => onUse(text)}>
                Validate with this schema
              </button>
            </div>
          </>
        ) : (
          <p class="hint">{call.error ? 'No result: see the error.' : 'Fill in the data to infer its schema.'}</p>
        )}
      </section>
    </div>
  );
}

export default function JsonSchemaPage(props: ToolPageProps) {
  // A schema carried from the Infer tab to the Validate tab, set once that tab is the selected one.
  const carried = useRef<string | null>(null);
  const { operation, setInputs, selectOperation } = props;
  useEffect(() => {
    const schema = carried.current;
    if (operation.id !== 'validate' || schema === null) return;
    carried.current = null;
    setInputs((previous) => ({ ...previous, schema }));
  }, [operation.id]);
  if (operation.id === 'infer')
    return (
      <InferPanel
        props={props}
        onUse={(schema) => {
          carried.current = schema;
          selectOperation('validate');
        }}
      />
    );
  return <ValidatePanel {...props} />;
}
