import { removeUriSchemePlugin } from '@hyperjump/browser';
import {
  getAllRegisteredSchemaUris,
  registerSchema,
  setMetaSchemaOutputFormat,
  setShouldValidateFormat,
  unregisterSchema,
  validate,
  type Validator,
} from '@hyperjump/json-schema/draft-2020-12';
import { BASIC, getSchema, toSchema } from '@hyperjump/json-schema/experimental';
import { describeCompileError } from './json-schema-compile-errors.js';
import { draftOfDialect, type DraftRow } from './json-schema-drafts.js';
import './json-schema-formats.js'; // every draft and format, with the service's corrections
import type { OutputUnit } from './json-schema-messages.js';
import { prepareSchema } from './json-schema-prepare.js';

// Never fetch: every document a $ref may reach comes from the request (`schemas`).
for (const scheme of ['http', 'https', 'file']) removeUriSchemePlugin(scheme);
setMetaSchemaOutputFormat(BASIC);

/** Where the request schema is registered while it compiles (its own `$id`, if any, takes over). */
const ROOT_URI = 'https://devutil.invalid/schema.json';

/** A compiled request schema, with the documents its failures are described from. */
export interface Compiled {
  validator: Validator;
  rootUris: Set<string>;
  documents: Map<string, unknown>;
}

function idOf(doc: unknown, row: DraftRow, base: string): string | undefined {
  const id = doc !== null && typeof doc === 'object' ? (doc as Record<string, unknown>)[row.idKeyword] : undefined;
  if (typeof id !== 'string') return undefined;
  try {
    return new URL(id, base).href.replace(/#$/, '');
  } catch {
    return undefined;
  }
}

/**
 * The validator's own documents (the drafts' meta-schemas), by URI, loaded once: a schema may
 * `$ref` them, and a failure inside one is described from its keyword values like any other.
 */
const builtInDocuments = new Map<string, unknown>();

async function loadBuiltInDocuments(uris: Iterable<string>): Promise<void> {
  for (const uri of uris) {
    if (!builtInDocuments.has(uri)) builtInDocuments.set(uri, toSchema(await getSchema(uri)));
  }
}

/**
 * Compile a request's root schema with its `schemas` documents, registered only while it compiles.
 * An invalid schema, or a `$ref` the request cannot resolve, throws `validation_error`.
 *
 * @example
 *   const { validator } = await compileSchema({ type: 'string' }, draftRow('2020-12'), []);
 */
export async function compileSchema(root: unknown, row: DraftRow, schemas: Array<[string, unknown]>): Promise<Compiled> {
  const before = new Set(getAllRegisteredSchemaUris());
  await loadBuiltInDocuments(before);
  const documents = new Map<string, unknown>(builtInDocuments);
  const rootUris = new Set([ROOT_URI]);
  const unusable = new Map<string, string>();
  try {
    for (const [uri, doc] of schemas) {
      const docRow = draftOfDialect((doc as { $schema?: unknown } | null)?.$schema) ?? row;
      const prepared = prepareSchema(doc, docRow, uri);
      documents.set(uri, prepared);
      const id = idOf(prepared, docRow, uri);
      if (id) documents.set(id, prepared);
      try {
        registerSchema(prepared as never, uri, row.dialect);
      } catch (err) {
        // an unusable document only matters if a $ref reaches it; say why then
        unusable.set(uri, (err as Error).message);
      }
    }
    const prepared = prepareSchema(root, row, ROOT_URI);
    documents.set(ROOT_URI, prepared);
    const id = idOf(prepared, row, ROOT_URI);
    if (id) {
      documents.set(id, prepared);
      rootUris.add(id);
    }
    registerSchema(prepared as never, ROOT_URI, row.dialect);
    return { validator: await validate(ROOT_URI), rootUris, documents };
  } catch (err) {
    throw describeCompileError(err, row, unusable);
  } finally {
    for (const uri of getAllRegisteredSchemaUris()) if (!before.has(uri)) unregisterSchema(uri);
  }
}

/**
 * Run a compiled validator on `data` (BASIC output), asserting `format` under every draft when
 * `assertFormat` is true.
 *
 * @example
 *   runValidator(validator, 1, false) // → { valid: false, errors: [...] }
 */
export function runValidator(validator: Validator, data: unknown, assertFormat: boolean): { valid: boolean; errors?: OutputUnit[] } {
  setShouldValidateFormat(assertFormat ? true : undefined); // read during the synchronous run below
  return validator(data as never, BASIC) as { valid: boolean; errors?: OutputUnit[] };
}
