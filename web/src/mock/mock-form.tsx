import type { TargetedSubmitEvent } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { CodeEditor } from '../components/code-editor';
import { useSession } from '../session';
import { FieldMessages } from './field-messages';
import { HeaderRows } from './header-rows';
import {
  COMMON_METHODS,
  createBodyOf,
  errorsOf,
  isJsonType,
  jsonProblem,
  NEW_MOCK,
  NO_ERRORS,
  OTHER_METHOD,
  patchBodyOf,
  valuesOf,
  type Field,
  type FormErrors,
  type Mock,
  type MockValues,
} from './mock-values';

const CONTENT_TYPES = [
  'application/json',
  'text/plain; charset=utf-8',
  'text/html; charset=utf-8',
  'application/xml',
  'text/csv',
  'application/problem+json',
];

export interface MockFormProps {
  /** The mock to edit; without it the form creates one. */
  mock?: Mock;
  /** After a successful create or PATCH, with the mock as the API returned it. */
  onSaved(mock: Mock): void;
  onCancel?(): void;
}

/**
 * The mock form (create and edit). Every field the API takes; the API judges the values, and its
 * `errors[]` are shown next to the fields they name. Editing sends only the fields that changed.
 */
export function MockForm({ mock, onSaved, onCancel }: MockFormProps) {
  const { api } = useSession();
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<MockValues>(() => (mock ? valuesOf(mock) : { ...NEW_MOCK, headers: [] }));
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  const set = <K extends keyof MockValues>(key: K, value: MockValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  const show = (found: FormErrors) => {
    setErrors(found);
    // Once rendered, focus the first field with a problem, or the message above the form.
    requestAnimationFrame(() =>
      form.current?.querySelector<HTMLElement>(':is(input, select, textarea)[aria-invalid="true"], #mock-form-error')?.focus(),
    );
  };

  const submit = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setNotice('');
    try {
      if (mock) {
        const built = patchBodyOf(values, mock);
        if (!built.ok) return show(built.errors);
        if (Object.keys(built.body).length === 0) {
          setErrors(NO_ERRORS);
          return setNotice('Nothing changed.');
        }
        setBusy(true);
        const saved = (await api.patch('/v1/mocks/{mock_id}', { path: { mock_id: mock.mock_id }, body: built.body })).mock;
        setErrors(NO_ERRORS);
        setValues(valuesOf(saved));
        setNotice('Saved.');
        onSaved(saved);
      } else {
        const built = createBodyOf(values);
        if (!built.ok) return show(built.errors);
        setBusy(true);
        onSaved((await api.post('/v1/mocks', { body: built.body })).mock);
      }
    } catch (err) {
      show(errorsOf(err, values.headers));
    } finally {
      setBusy(false);
    }
  };

  /** The aria attributes of a field: its hint and messages, and whether it has a problem. */
  const describe = (field: Field, hint: boolean, extra: string[] = []) => {
    const problems = errors.fields[field] ?? [];
    const ids = [...(hint ? [`mock-${field}-hint`] : []), ...(problems.length > 0 ? [`mock-${field}-error`] : []), ...extra];
    return { 'aria-describedby': ids.join(' ') || undefined, 'aria-invalid': problems.length > 0 || undefined };
  };
  const messages = (field: Field) => <FieldMessages id={`mock-${field}-error`} messages={errors.fields[field] ?? []} />;
  const hint = (field: Field, text: string) => (
    <p id={`mock-${field}-hint`} class="hint">
      {text}
    </p>
  );

  const json = isJsonType(values.contentType);
  const problem = json ? jsonProblem(values.body) : null;
  const bodyIds = [...(problem !== null ? ['mock-body-warning'] : []), ...(errors.fields.body ? ['mock-body-error'] : [])];

  return (
    <form ref={form} class="mock-form" noValidate onSubmit={(event) => void submit(event)}>
      {errors.top !== null && (
        <p id="mock-form-error" class="error" role="alert" tabIndex={-1}>
          {errors.top}
        </p>
      )}
      <div class="mock-field mock-field-wide">
        <label for="mock-name">Name</label>
        <input
          id="mock-name"
          autocomplete="off"
          value={values.name}
          onInput={(e) => set('name', e.currentTarget.value)}
          {...describe('name', false)}
        />
        {messages('name')}
      </div>
      <div class="mock-field">
        <label for="mock-status">Status</label>
        <input
          id="mock-status"
          type="number"
          inputMode="numeric"
          min={100}
          max={599}
          step={1}
          value={values.status}
          onInput={(e) => set('status', e.currentTarget.value)}
          {...describe('status', true)}
        />
        {hint('status', '100 to 599.')}
        {messages('status')}
      </div>
      <div class="mock-field">
        <label for="mock-contentType">Content type</label>
        <input
          id="mock-contentType"
          list="mock-content-types"
          autocomplete="off"
          spellcheck={false}
          value={values.contentType}
          onInput={(e) => set('contentType', e.currentTarget.value)}
          {...describe('contentType', true)}
        />
        <datalist id="mock-content-types">
          {CONTENT_TYPES.map((type) => (
            <option key={type} value={type} />
          ))}
        </datalist>
        {hint('contentType', 'Wins over a content-type header.')}
        {messages('contentType')}
      </div>
      <div class="mock-field">
        <label for="mock-method">Method</label>
        <select id="mock-method" value={values.method} onChange={(e) => set('method', e.currentTarget.value)} {...describe('method', true)}>
          <option value="">any</option>
          {COMMON_METHODS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
          <option value={OTHER_METHOD}>Other…</option>
        </select>
        {values.method === OTHER_METHOD && (
          <>
            <label for="mock-custom-method">Custom method</label>
            <input
              id="mock-custom-method"
              autocomplete="off"
              spellcheck={false}
              placeholder="PURGE"
              value={values.customMethod}
              onInput={(e) => set('customMethod', e.currentTarget.value)}
              {...describe('method', false)}
            />
          </>
        )}
        {hint('method', 'Other methods get 405. A GET mock also answers HEAD.')}
        {messages('method')}
      </div>
      <div class="mock-field">
        <label for="mock-path">Path</label>
        <input
          id="mock-path"
          autocomplete="off"
          spellcheck={false}
          placeholder="/orders/42"
          value={values.path}
          onInput={(e) => set('path', e.currentTarget.value)}
          {...describe('path', true)}
        />
        {hint('path', 'Empty: the URL and every sub-path answer. Set: only the URL followed by this path.')}
        {messages('path')}
      </div>
      <div class="mock-field">
        <label for="mock-delay">Delay (ms)</label>
        <input
          id="mock-delay"
          type="number"
          inputMode="numeric"
          min={0}
          max={30000}
          step={1}
          value={values.delay}
          onInput={(e) => set('delay', e.currentTarget.value)}
          {...describe('delay', true)}
        />
        {hint('delay', '0 to 30000, before each answer.')}
        {messages('delay')}
      </div>
      <div class="mock-field">
        <label for="mock-ttl">Lifetime (seconds)</label>
        <input
          id="mock-ttl"
          type="number"
          inputMode="numeric"
          min={60}
          max={172800}
          step={1}
          placeholder={mock ? 'unchanged' : undefined}
          value={values.ttl}
          onInput={(e) => set('ttl', e.currentTarget.value)}
          {...describe('ttl', true)}
        />
        {hint('ttl', mock ? 'Empty keeps the expiry; a value (60 to 172800) restarts the lifetime now.' : '60 to 172800 (48 hours).')}
        {messages('ttl')}
      </div>
      <div class="mock-field mock-field-wide">
        <HeaderRows
          rows={values.headers}
          onChange={(rows) => set('headers', rows)}
          messages={errors.fields.headers ?? []}
          rowMessages={errors.rows}
        />
      </div>
      <div class="mock-field mock-field-wide">
        <label for="mock-body">Body</label>
        <CodeEditor
          id="mock-body"
          label="Body"
          hostClass="mock-body-editor"
          value={values.body}
          onInput={(text) => set('body', text)}
          language={json ? 'json' : 'text'}
          describedBy={bodyIds.join(' ') || undefined}
          invalid={errors.fields.body !== undefined}
        />
        {problem !== null && (
          <p id="mock-body-warning" class="mock-field-warning">
            Not valid JSON ({problem}). The mock serves the body exactly as written.
          </p>
        )}
        {messages('body')}
        {json && (
          <button
            type="button"
            class="secondary"
            disabled={problem !== null || values.body.trim() === ''}
            onClick={() => set('body', JSON.stringify(JSON.parse(values.body), null, 2))}
          >
            Format JSON
          </button>
        )}
      </div>
      <div class="mock-form-actions mock-field-wide">
        <button type="submit" disabled={busy}>
          {mock ? 'Save changes' : 'Create mock'}
        </button>
        {onCancel && (
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
        <span role="status" class="hint">
          {busy ? 'Saving…' : notice}
        </span>
      </div>
    </form>
  );
}
