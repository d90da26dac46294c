// The array operations page: the operation picker, the arrays as JSON, and only the options the
// picked operation takes (labelled for it, from the request schema's `options`); the answer as a
// numbered list (a table for objects) with its count.
import { useState } from 'preact/hooks';
import './array-ops.css';
import { OPERATION_OPTIONS, optionLabel, optionOfError, readOptions, writeOptions, type OptionValues } from './array-ops-options';
import { FieldInput, fieldId } from './form';
import { ResultValue } from './result';
import type { FieldSpec, JsonSchema, ToolPageProps } from './types';

/** Most items the list shows; the raw JSON has them all. */
const MAX_ITEMS = 500;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The field of one option, from its schema in the request's `options`. */
function optionField(operation: string, name: string, schema: JsonSchema): FieldSpec {
  const kind = schema.type === 'boolean' ? 'checkbox' : schema.type === 'integer' ? 'integer' : 'text';
  return {
    name,
    label: optionLabel(operation, name),
    kind,
    required: operation === 'chunk' && name === 'size',
    choices: [],
    defaultValue: kind === 'checkbox' ? schema.default === true : undefined,
    description: schema.description,
    secret: false,
    schema,
  };
}

function ArrayResult({ result, count, operation }: { result: unknown[]; count: number; operation: string }) {
  const noun = operation === 'chunk' ? (count === 1 ? 'chunk' : 'chunks') : count === 1 ? 'item' : 'items';
  const shown = result.slice(0, MAX_ITEMS);
  return (
    <>
      <p class="array-count">
        <strong>{count}</strong> {noun}
      </p>
      {result.length > 0 && result.every(isPlainObject) ? (
        <ResultValue value={result} label="Result" />
      ) : (
        // Focusable: the list scrolls, and the keyboard must reach it too.
        <ol class="array-items" aria-label="Result items" tabIndex={0}>
          {shown.map((item, i) => (
            <li key={i}>
              <code>{JSON.stringify(item)}</code>
            </li>
          ))}
        </ol>
      )}
      {result.length > shown.length && (
        <p class="hint">
          Showing {shown.length} of {result.length}; the raw JSON has them all.
        </p>
      )}
    </>
  );
}

export default function ArrayOpsPage(props: ToolPageProps) {
  const { operation, spec, fields, inputs, setInputs, run, call } = props;
  const [values, setValues] = useState<OptionValues>(() => readOptions(inputs.options));
  const fieldErrors = call.error?.fieldErrors ?? {};
  const picked = typeof inputs.operation === 'string' ? inputs.operation : '';
  const schemas = spec.request.schema.properties?.options?.properties ?? {};
  const numeric = new Set(Object.keys(schemas).filter((name) => schemas[name].type === 'integer'));
  const names = OPERATION_OPTIONS[picked] ?? [];
  const optionsError = fieldErrors.options;
  const errorOption = optionsError === undefined ? undefined : optionOfError(optionsError, names);

  const field = (name: string) => fields.find((f) => f.name === name)!;
  const update = (next: { operation?: string; values?: OptionValues }) => {
    const op = next.operation ?? picked;
    let vals = next.values ?? values;
    // chunk needs a size: picking it with none set starts at 2, not at an error.
    if (next.operation === 'chunk' && (vals.size === undefined || vals.size === '')) vals = { ...vals, size: '2' };
    if (vals !== values) setValues(vals);
    setInputs((previous) => ({ ...previous, operation: op, options: writeOptions(op, vals, numeric) }));
  };

  const outcome = call.outcome && !call.error ? (call.outcome.result as { result: unknown[]; count: number; operation: string }) : null;
  return (
    <div class="tool-columns">
      <form
        class="tool-form"
        aria-label={operation.label}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <FieldInput
          field={field('operation')}
          id={fieldId(operation.id, 'operation')}
          value={picked}
          error={fieldErrors.operation}
          onChange={(value) => update({ operation: String(value) })}
        />
        <FieldInput
          field={field('arrays')}
          id={fieldId(operation.id, 'arrays')}
          value={inputs.arrays}
          error={fieldErrors.arrays}
          onChange={(value) => setInputs((previous) => ({ ...previous, arrays: value }))}
        />
        <fieldset class="array-options">
          <legend>Options of {picked || 'the operation'}</legend>
          {names.length === 0 && <p class="hint">This operation takes no options.</p>}
          {names.map((name) => (
            <FieldInput
              key={`${picked}-${name}`}
              field={optionField(picked, name, schemas[name] ?? {})}
              id={fieldId(operation.id, `options-${name}`)}
              value={values[name] ?? (schemas[name]?.type === 'boolean' ? false : '')}
              error={errorOption === name ? optionsError : undefined}
              onChange={(value) => update({ values: { ...values, [name]: value } })}
            />
          ))}
          {optionsError !== undefined && errorOption === undefined && <p class="tool-field-error">{optionsError}</p>}
        </fieldset>
      </form>
      <section class="tool-result" aria-labelledby="tool-result-heading" aria-busy={call.busy ? 'true' : undefined}>
        <div class="tool-result-head">
          <h2 id="tool-result-heading">Result</h2>
          {call.busy && <span class="hint">Updating…</span>}
        </div>
        {outcome ? (
          <ArrayResult result={outcome.result} count={outcome.count} operation={outcome.operation} />
        ) : (
          <p class="hint">{call.error ? 'No result: see the error.' : 'Working…'}</p>
        )}
      </section>
    </div>
  );
}
