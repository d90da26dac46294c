// The mock data page: a table of fields (name, a type from GET /v1/mock-data/types, the options that
// type takes), rows, locale and seed; "Generate" shows the rows as a table, and the downloads ask the
// API for the same request (same seed) as JSON, CSV, SQL or XML.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { useSession } from '../session';
import { sendRequest } from './call';
import { FieldInput, fieldId } from './form';
import './mock-data.css';
import {
  fieldsOfRows,
  inputsOfBody,
  newRow,
  placeFieldErrors,
  randomSeed,
  rowsOfFields,
  type FieldRow,
  type FieldTypeInfo,
} from './mock-data-fields';
import { Preview, saveFile, type Generated } from './mock-data-preview';
import { FieldTable } from './mock-data-table';
import { labelOf } from './operations';
import type { CallError, FieldSpec, ToolPageProps } from './types';

const MAX_FIELDS = 50;

type Format = 'json' | 'csv' | 'sql' | 'xml';
const FORMATS: { format: Format; label: string; type: string }[] = [
  { format: 'json', label: 'JSON', type: 'application/json' },
  { format: 'csv', label: 'CSV', type: 'text/csv' },
  { format: 'sql', label: 'SQL', type: 'application/sql' },
  { format: 'xml', label: 'XML', type: 'application/xml' },
];

export default function MockDataPage(props: ToolPageProps) {
  const { operation, fields, inputs, setInputs, run, send, call } = props;
  const { api } = useSession();
  const [types, setTypes] = useState<{ types: Map<string, FieldTypeInfo>; locales: string[] } | null>(null);
  const [typesError, setTypesError] = useState<string | null>(null);
  const [rows, setRows] = useState<FieldRow[]>([]);
  const [downloading, setDownloading] = useState<Format | null>(null);
  const [downloadError, setDownloadError] = useState<CallError | null>(null);

  useEffect(() => {
    sendRequest(api, { method: 'get', path: '/v1/mock-data/types', query: null, body: null }).then(
      ({ result }) => {
        const answer = result as { types: FieldTypeInfo[]; locales: string[] };
        const map = new Map(answer.types.map((t) => [t.name, t]));
        setTypes({ types: map, locales: answer.locales });
        setRows(rowsOfFields(inputs.fields, map));
      },
      (err: unknown) => setTypesError(err instanceof ApiError ? err.detail : String(err)),
    );
    generate();
  }, []);

  const typeMap = types?.types ?? new Map<string, FieldTypeInfo>();
  const { invalid } = fieldsOfRows(rows, typeMap);
  const locallyInvalid = Object.keys(invalid).length > 0;
  const fieldErrors = call.error?.fieldErrors ?? {};
  const rowErrors: Record<string, string> = {};
  for (const [key, message] of Object.entries(invalid)) {
    const [row, option] = key.split('.');
    rowErrors[`${row}.options.${option}`] = `${labelOf(option)} ${message}.`;
  }
  let tableError = '';
  if (fieldErrors.fields !== undefined) {
    const { placed, rest } = placeFieldErrors(fieldErrors.fields);
    for (const error of placed) rowErrors[`${error.row}.${error.part}`] = error.message;
    tableError = rest;
  }

  const changeRows = (next: FieldRow[]) => {
    setRows(next);
    setInputs((previous) => ({ ...previous, fields: JSON.stringify(fieldsOfRows(next, typeMap).fields, null, 2) }));
  };

  function generate() {
    if (Object.keys(invalid).length > 0) return;
    if (inputs.seed !== '') return run();
    // A seed of this Generate only: the field stays empty (new rows next time), the downloads repeat these rows.
    setInputs((previous) => ({ ...previous, seed: String(randomSeed()) }));
    run();
    setInputs((previous) => ({ ...previous, seed: '' }));
  }

  const outcome = call.outcome;
  const body = outcome?.request.body ?? null;
  const result = outcome ? (outcome.result as Generated) : null;

  const download = async (format: Format, type: string) => {
    if (body === null || result === null) return;
    setDownloadError(null);
    const name = `mock-data.${format}`;
    if (format === 'json') return saveFile(JSON.stringify(result.data, null, 2) + '\n', name, type);
    setDownloading(format);
    try {
      const sql = { table_name: inputs.table_name, dialect: inputs.dialect, create_table: inputs.create_table };
      const answer = await send(operation.id, { ...inputsOfBody(body), ...sql, output_format: format });
      saveFile((answer.result as { data: string }).data, name, type);
    } catch (err) {
      setDownloadError(err as CallError);
    } finally {
      setDownloading(null);
    }
  };

  const field = (name: string) => fields.find((f) => f.name === name)!;
  const input = (name: string, override: Partial<FieldSpec> = {}) => (
    <FieldInput
      field={{ ...field(name), ...override }}
      id={fieldId(operation.id, name)}
      value={inputs[name]}
      error={fieldErrors[name] ?? downloadError?.fieldErrors[name]}
      onChange={(value) => setInputs((previous) => ({ ...previous, [name]: value }))}
    />
  );
  const locales = types?.locales ?? [String(inputs.locale)];
  const seedWasPicked = inputs.seed === '' && body?.seed !== undefined;

  return (
    <div class="mock-data">
      <form
        class="tool-form"
        aria-label={operation.label}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          generate();
        }}
      >
        <section class="mock-fields-section" aria-labelledby="mock-fields-heading">
          <h2 id="mock-fields-heading">Fields</h2>
          {typesError !== null && (
            <p class="error" role="alert">
              The field types could not be loaded: {typesError}
            </p>
          )}
          {types === null && typesError === null && <p class="hint">Loading the field types…</p>}
          {types !== null && <FieldTable rows={rows} types={typeMap} errors={rowErrors} operationId={operation.id} onChange={changeRows} />}
          {tableError !== '' && <p class="tool-field-error">{tableError}</p>}
          {types !== null && (
            <button
              type="button"
              class="secondary"
              disabled={rows.length >= MAX_FIELDS}
              onClick={() => changeRows([...rows, newRow(`field_${rows.length + 1}`, 'word')])}
            >
              Add field
            </button>
          )}
        </section>
        <div class="mock-settings">
          {input('rows')}
          {input('locale', { kind: 'select', choices: locales })}
          {input('seed', { description: 'Same seed, same rows. Empty: new rows each time (the seed used is shown with them).' })}
        </div>
        <details
          class="tool-more"
          open={['table_name', 'dialect'].some((n) => (fieldErrors[n] ?? downloadError?.fieldErrors[n]) !== undefined)}
        >
          <summary>SQL options</summary>
          {input('table_name')}
          {input('dialect')}
          {input('create_table')}
        </details>
        <div class="tool-run">
          <button type="submit" disabled={call.busy || types === null}>
            Generate
          </button>
          {call.busy && (
            <span class="tool-progress" role="status">
              <progress aria-label="Generating" /> Generating…
            </span>
          )}
        </div>
      </form>
      <section class="tool-result" aria-labelledby="tool-result-heading" aria-busy={call.busy ? 'true' : undefined}>
        <div class="tool-result-head">
          <h2 id="tool-result-heading">Result</h2>
        </div>
        {/* Rows of an earlier form do not stand beside a form that cannot be sent as it is. */}
        {body !== null && result !== null && !call.error && !locallyInvalid ? (
          <>
            <Preview
              body={body}
              result={result}
              onKeepSeed={seedWasPicked ? () => setInputs((previous) => ({ ...previous, seed: String(body.seed) })) : undefined}
            />
            <div class="mock-downloads" role="group" aria-label="Downloads">
              {FORMATS.map(({ format, label, type }) => (
                <button
                  key={format}
                  type="button"
                  class="secondary"
                  disabled={downloading !== null}
                  onClick={() => void download(format, type)}
                >
                  Download {label}
                </button>
              ))}
              <span class="hint" role="status">
                {downloading !== null ? `Preparing ${downloading.toUpperCase()}…` : ''}
              </span>
            </div>
            {downloadError !== null && (
              <p class="error" role="alert">
                {downloadError.detail}
              </p>
            )}
          </>
        ) : (
          <p class="hint">
            {call.error || locallyInvalid ? 'No rows: see the error.' : call.busy ? 'Generating…' : 'Press Generate to see the rows.'}
          </p>
        )}
      </section>
    </div>
  );
}
