// The JMESPath page: the data beside the expression and its live result; a syntax error shows the
// API's detail under the expression with a caret at the position it names; examples as chips.
import { useEffect, useRef, useState } from 'preact/hooks';
import { CopyButton } from '../components/copy-button';
import { FieldInput, fieldId, Prose } from './form';
import { caretWindow, errorPositionOf, unitIndexOf } from './jmespath-caret';
import { JsonView } from './json-schema-json-view';
import type { FieldSpec, ToolPageProps } from './types';
import './jmespath.css';

/** Expressions to try on the page's example data (`people` with `name` and `age`). */
const EXAMPLES = [
  'people[?age > `40`].name',
  'people[*].name',
  'sort_by(people, &age)[-1].name',
  'people[].{who: name, over_40: age > `40`}',
  'length(people)',
  'keys(@)',
];

/** The expression an error was found in and where, kept while a newer expression is being sent. */
interface Marked {
  expression: string;
  position: number;
}

function ErrorCaret({ marked, inputId }: { marked: Marked; inputId: string }) {
  const { before, at, after, column } = caretWindow(marked.expression, marked.position);
  const goTo = () => {
    const input = document.getElementById(inputId) as HTMLInputElement | null;
    if (input === null) return;
    const from = unitIndexOf(input.value, marked.position);
    input.focus();
    input.setSelectionRange(from, unitIndexOf(input.value, marked.position + 1));
  };
  return (
    <div class="jmespath-caret">
      {/* The detail above says the position in words; this picture of it is for the eyes only. */}
      <pre aria-hidden="true" class="jmespath-caret-text">
        {before}
        <mark>{at}</mark>
        {after}
        {'\n'}
        <span class="jmespath-caret-line">{' '.repeat(column)}^</span>
      </pre>
      <button type="button" class="secondary jmespath-goto" onClick={goTo}>
        Go to position {marked.position}
      </button>
    </div>
  );
}

function ExpressionField({ field, props, marked }: { field: FieldSpec; props: ToolPageProps; marked: Marked | null }) {
  const { operation, inputs, setInputs, call } = props;
  const id = fieldId(operation.id, field.name);
  const error = call.error?.fieldErrors[field.name];
  const errorId = error ? `${id}-error` : undefined;
  const hintId = field.description ? `${id}-hint` : undefined;
  const value = typeof inputs[field.name] === 'string' ? (inputs[field.name] as string) : '';
  return (
    <div class="tool-field tool-field-text jmespath-expression">
      <span class="tool-label">
        <label for={id}>{field.label}</label>
      </span>
      <input
        id={id}
        type="text"
        value={value}
        spellcheck={false}
        autoComplete="off"
        maxLength={field.schema.maxLength}
        aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
        aria-invalid={error ? 'true' : undefined}
        aria-required="true"
        onInput={(e) => {
          const next = e.currentTarget.value;
          setInputs((previous) => ({ ...previous, [field.name]: next }));
        }}
      />
      {errorId && (
        <p id={errorId} class="tool-field-error">
          {error}
        </p>
      )}
      {error && marked && <ErrorCaret marked={marked} inputId={id} />}
      {hintId && (
        <p id={hintId} class="hint">
          <Prose text={field.description!} />
        </p>
      )}
      <div class="jmespath-examples" role="group" aria-label="Examples to try">
        <span class="hint">Try:</span>
        {EXAMPLES.map((example) => (
          <button
            key={example}
            type="button"
            class="jmespath-chip"
            aria-pressed={value === example}
            onClick={() => setInputs((previous) => ({ ...previous, [field.name]: example }))}
          >
            {example}
          </button>
        ))}
      </div>
    </div>
  );
}

export default function JmespathPage(props: ToolPageProps) {
  const { operation, fields, inputs, setInputs, call } = props;
  const byName = (name: string) => fields.find((f) => f.name === name);
  const data = byName('data')!;
  const expression = byName('expression')!;
  const legacy = byName('legacy_literals');
  const fieldErrors = call.error?.fieldErrors ?? {};

  // Once the answer for the current inputs is in, the error's position belongs to the expression as typed.
  const [marked, setMarked] = useState<Marked | null>(null);
  const typed = useRef(inputs.expression);
  typed.current = inputs.expression;
  useEffect(() => {
    if (call.busy) return;
    const position = call.error?.code === 'invalid_expression' ? errorPositionOf(call.error.detail) : null;
    setMarked(position === null ? null : { expression: String(typed.current), position });
  }, [call.error, call.busy]);

  const outcome = call.outcome;
  const answer = outcome?.result as { result: unknown; expression: string } | undefined;
  const input = (field: FieldSpec) => (
    <FieldInput
      field={field}
      id={fieldId(operation.id, field.name)}
      value={inputs[field.name]}
      error={fieldErrors[field.name]}
      onChange={(value) => setInputs((previous) => ({ ...previous, [field.name]: value }))}
    />
  );

  let content;
  if (answer && !call.error)
    content = (
      <dl class="tool-fields tool-result-fields">
        <div class="tool-field-row">
          <dt>Output</dt>
          <dd>
            <JsonView value={answer.result} />
          </dd>
        </div>
        <div class="tool-field-row jmespath-for">
          <dt>For the expression</dt>
          <dd>
            <code class="tool-value">{answer.expression}</code>
          </dd>
        </div>
      </dl>
    );
  else if (call.error) content = <p class="hint">No result: see the error.</p>;
  else if (call.missing.length > 0) content = <p class="hint">Fill in the data and an expression to see the result.</p>;
  else content = <p class="hint">Working…</p>;

  return (
    <div class="tool-columns jmespath-page">
      <div class="tool-form">{input(data)}</div>
      <div class="tool-form">
        <ExpressionField field={expression} props={props} marked={marked} />
        {legacy && input(legacy)}
        <section class="tool-result" aria-labelledby="tool-result-heading" aria-busy={call.busy ? 'true' : undefined}>
          <div class="tool-result-head">
            <h2 id="tool-result-heading">Result</h2>
            {call.busy && <span class="hint">Updating…</span>}
            {answer && !call.error && (
              <CopyButton
                label="Copy result"
                text={() => JSON.stringify(answer.result, null, 2) ?? 'null'}
                class="secondary tool-copy-small"
              />
            )}
          </div>
          {content}
        </section>
      </div>
    </div>
  );
}
