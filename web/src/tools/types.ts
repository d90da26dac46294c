// The types of the tool pages: the registry's entries, the request schemas the build ships, and the
// props a tool's own renderer receives.
//
// Adding a specific rendering for a tool (the extension point)
// ------------------------------------------------------------
// 1. Write web/src/tools/<slug>.tsx whose default export takes ToolPageProps, e.g. a JWT page whose
//    token box is its own and whose answer reuses the generic pieces:
//
//      import { FieldInput, fieldId, GenericForm } from './form';
//      import { GenericResult } from './result';
//      import type { ToolPageProps } from './types';
//
//      export default function JwtPage(props: ToolPageProps) {
//        const { operation, fields, inputs, setInputs, call } = props;
//        if (operation.id !== 'decode') return <GenericForm {...props} />;
//        const token = fields.find((f) => f.name === 'token')!;
//        return (
//          <div class="tool-columns">
//            <FieldInput field={token} id={fieldId(operation.id, 'token')} value={inputs.token}
//              error={call.error?.fieldErrors.token} onChange={(v) => setInputs((i) => ({ ...i, token: v }))} />
//            {call.outcome && <GenericResult value={call.outcome.result} />}
//          </div>
//        );
//      }
//
// 2. Name it in the tool's registry entry: `render: () => import('./jwt')`. It loads with the page,
//    out of the first view's bundle; until it has loaded the page says "Loading…".
//
// The page keeps around the renderer what every tool has: the heading, the description, the
// operation tabs, an error that names no field (credits run out, a network failure), "Share",
// "Raw JSON", "curl" and the credits line. The renderer replaces the form and the result only.
//   - inputs / setInputs: the selected operation's form values as text (see Inputs). The page turns
//     them into the request with the schema, sends live operations itself (debounced, one call in
//     flight, stale answers dropped), puts them in shared links and restores them from one.
//   - run(): send now (a "Run" button; costly operations send only on run()).
//   - call.outcome: the last answer (`result` is the JSON body, `request` what produced it);
//     call.error: the last refusal, `fieldErrors` by field name; call.busy; call.missing.
//   - send(id, inputs): a one-off call of any operation of the page (a key pair to sign with), made
//     when the page has no other call in flight.
//   - selectOperation(id): switch tabs.
import type { ComponentType } from 'preact';
import type { ApiPath } from '../api';

/** The API's tags of the tool operations; `auth` is the cryptographic area (CONTRACT §4). */
export type Area = 'devtools' | 'auth' | 'dns' | 'email' | 'geo';

/** A JSON Schema as the OpenAPI document writes the tools' requests and answers (the keywords read here). */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  examples?: unknown[];
  [keyword: string]: unknown;
}

/** What the build ships of one operation of the OpenAPI document (web/src/tools/operations.gen.json). */
export interface OperationSpec {
  method: 'get' | 'post';
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  /** The JSON body's schema (POST) or the query parameters as one object schema (GET). */
  request: { in: 'body' | 'query'; schema: JsonSchema; example: Record<string, unknown> | null };
  /** The schema of the 200 answer. */
  response: JsonSchema | null;
}

/** How one request field is shown, beyond what its schema says. */
export interface FieldHint {
  label?: string;
  /** `code` is a JSON editor; `textarea` is multi-line text. */
  widget?: 'input' | 'textarea' | 'code';
  /** The values to offer in a select when the schema has no enum (e.g. DNS record types). */
  choices?: string[];
  /** Holds a secret (password, key, token): "Share" warns before putting it in a link. */
  secret?: boolean;
}

/** One API operation a tool page calls, shown as a tab when the page has several. */
export type ToolOperation = {
  /** Stable within the page, used in shared links: `decode`, `verify`, ... */
  id: string;
  /** The tab's text. */
  label: string;
  /** The spec's wording of what this operation does. */
  description: string;
  /**
   * `live`: cheap, called as you type (debounced). `run`: costly (password hashing, key pairs, DNS,
   * scrypt) or random, called by the "Run" button.
   */
  mode: 'live' | 'run';
  fields?: Record<string, FieldHint>;
  /** Error codes without `errors[].path` that belong to a field, e.g. `{ invalid_expression: 'expression' }`. */
  errorFields?: Record<string, string>;
  /** Inputs the page opens with over the OpenAPI example's, e.g. `{ ip: '' }`: the caller's own address. */
  initial?: Inputs;
} & ({ method: 'post'; path: ApiPath<'post'> } | { method: 'get'; path: ApiPath<'get'> });

/** A page of the tools: one tool, or a few closely related operations on tabs (JWT decode / verify / generate). */
export interface ToolEntry {
  /** The page is `/tools/{slug}`. */
  slug: string;
  /** The page's main heading and the card's title (CONTRACT §8). */
  name: string;
  area: Area;
  /** The spec's wording. */
  description: string;
  /** Words people search for that the name and description may lack: "bcrypt", "otp", "uuid". */
  keywords: string[];
  /** The first one is the page's default tab. */
  operations: ToolOperation[];
  /** A specific rendering replacing the generic form and result (see the top of this file). */
  render?: () => Promise<{ default: ComponentType<ToolPageProps> }>;
}

/**
 * The form's values of one operation, by request field name: text for text, number, select and JSON
 * fields (a JSON field holds the editor's text, valid or not), a boolean for a checkbox. The page turns
 * them into the request with the schema: empty optional fields and values equal to the schema's
 * default are left out.
 */
export type Inputs = Record<string, string | boolean>;

/** One request field as the generic form shows it. */
export interface FieldSpec {
  name: string;
  label: string;
  kind: 'text' | 'textarea' | 'code' | 'number' | 'integer' | 'select' | 'checkbox';
  required: boolean;
  /** The select's values (as text), for `select`. */
  choices: string[];
  /** The schema's default, as the form holds it. */
  defaultValue: string | boolean | undefined;
  description: string | undefined;
  secret: boolean;
  schema: JsonSchema;
}

/** One request ready to send: method, path and query or body. */
export interface PreparedRequest {
  method: 'get' | 'post';
  path: string;
  query: Record<string, string> | null;
  body: Record<string, unknown> | null;
}

/** Credits after a metered call (`X-Credits-*` headers); `cost` when the previous balance was known. */
export interface Credits {
  limit: number;
  remaining: number;
  cost: number | null;
}

/** A successful answer. */
export interface Outcome {
  operation: string;
  request: PreparedRequest;
  result: unknown;
  /** null when the call was not metered (no `X-Credits-*` headers). */
  credits: Credits | null;
}

/** A refused call: the API's error (or a local one), with the fields it names. */
export interface CallError {
  detail: string;
  code: string;
  status: number;
  /** Field name → the sentence to show next to it. */
  fieldErrors: Record<string, string>;
}

/** The state of the selected operation's calls. */
export interface CallView {
  /** A call of this operation is in flight or waiting for the debounce. */
  busy: boolean;
  /** The last successful answer for this operation (kept while a newer call runs). */
  outcome: Outcome | null;
  /** The last error (API or local: invalid JSON in a field), null after a success. */
  error: CallError | null;
  /** Required fields still empty: live operations wait for them. */
  missing: string[];
}

/** What a tool's renderer receives (see the top of this file). */
export interface ToolPageProps {
  tool: ToolEntry;
  /** The selected tab. */
  operation: ToolOperation;
  spec: OperationSpec;
  fields: FieldSpec[];
  inputs: Inputs;
  /** Replace or update the selected operation's inputs; a live operation runs again after the debounce. */
  setInputs(next: Inputs | ((previous: Inputs) => Inputs)): void;
  /** Send the selected operation now with the current inputs (the Run button). */
  run(): void;
  call: CallView;
  selectOperation(id: string): void;
  /**
   * One call of any operation of this page outside the live flow (e.g. generate a key pair to sign
   * with), sent once no other call of the page is in flight; resolves with the answer, rejects with a
   * CallError. Updates the credits line.
   */
  send(operationId: string, inputs: Inputs): Promise<Outcome>;
}
