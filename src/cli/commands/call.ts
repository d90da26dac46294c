import type { Command } from 'commander';
import { action, connect, examples } from '../command-kit.js';
import { UsageError } from '../failures.js';
import { apiErrorOf, type ApiClient } from '../http.js';
import { printJson, printTable, say } from '../output.js';
import {
  bodySchema,
  coerceValue,
  describeType,
  findOperation,
  listOperations,
  operationFields,
  type Field,
  type FoundOperation,
  type OpenApiDocument,
  type Operation,
} from '../openapi-doc.js';
import { readJson, readText } from '../values.js';

interface CallOptions {
  list?: boolean;
  json?: boolean;
  data?: string;
  help?: boolean;
}

/** The service's own OpenAPI document (public, no key needed). */
async function loadDocument(api: ApiClient): Promise<OpenApiDocument> {
  return api.call<OpenApiDocument>('GET', '/openapi.json');
}

/** `--help` for one operation: what it does, how it is called, and its fields from the document. */
function printOperationHelp(op: Operation): void {
  const fields = operationFields(op);
  say(
    `Usage: devutil call ${op.operationId}${fields.length ? ' [field=value ...]' : ''}${bodySchema(op) ? ' [--data @file.json | -]' : ''}`,
  );
  say('');
  if (op.summary) say(op.summary);
  say(`${op.method} ${op.path}`);
  if (fields.length) {
    say('');
    say('Fields:');
    const width = Math.max(...fields.map((f) => f.name.length));
    for (const f of fields) {
      const notes = [
        describeType(f.schema),
        f.required ? 'required' : undefined,
        f.schema.default !== undefined ? `default ${JSON.stringify(f.schema.default)}` : undefined,
        f.in === 'body' ? undefined : `in ${f.in}`,
      ];
      say(`  ${f.name.padEnd(width)}  ${notes.filter(Boolean).join(', ')}${f.description ? `: ${f.description.split('\n')[0]}` : ''}`);
    }
  }
  say('');
  say('Values are typed from the schema: numbers, true/false, JSON for objects and arrays; field=@file reads a file,');
  say('field=@@text sends the text @text.');
}

/**
 * Build the request of `op` from `field=value` arguments over an optional `--data` body: path
 * parameters go into the path, query ones into the query, the rest into the JSON body.
 */
function buildRequest({ op, pathValues }: FoundOperation, args: string[], data: string | undefined) {
  const fields = new Map(operationFields(op).map((f) => [f.name, f]));
  const schema = bodySchema(op);
  let body: Record<string, unknown> | undefined;
  if (data !== undefined) {
    const parsed = readJson(data, '--data');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--data must be a JSON object');
    body = parsed as Record<string, unknown>;
  }
  const query: Record<string, string> = {};
  let path = op.path;
  // Segments given in the operation's path, as written there (already URL-encoded).
  for (const [name, segment] of Object.entries(pathValues)) path = path.replace(`{${name}}`, () => segment);
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new UsageError(`"${arg}" is not field=value`);
    const name = arg.slice(0, eq);
    let raw = arg.slice(eq + 1);
    // `@@text` is the text `@text`, and `@` alone names no file (JMESPath's current node).
    if (raw.startsWith('@@')) raw = raw.slice(1);
    else if (raw.startsWith('@') && raw !== '@') raw = readText(raw);
    const field: Field | undefined = fields.get(name);
    if (!field && (!schema || schema.additionalProperties === false || schema.properties))
      throw new UsageError(`${op.operationId} has no field "${name}" (devutil call ${op.operationId} --help lists them)`);
    const value = coerceValue(field ?? { name, schema: {} }, raw);
    if (field?.in === 'path') {
      const given = pathValues[name];
      if (given !== undefined && given !== encodeURIComponent(String(value)) && given !== String(value))
        throw new UsageError(`${name}=${String(value)} differs from ${given} in the path`);
      path = path.replace(`{${name}}`, () => encodeURIComponent(String(value)));
    } else if (field?.in === 'query') query[name] = typeof value === 'string' ? value : JSON.stringify(value);
    else (body ??= {})[name] = value;
  }
  const missing = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  if (missing.length) throw new UsageError(`${op.operationId} needs ${missing.map((n) => `${n}=...`).join(' ')}`);
  if (schema && body === undefined && op.requestBody?.required) body = {};
  return { path, query, body };
}

/** `devutil call OPERATION [field=value ...]`: any operation of /openapi.json (CONTRACT §9). */
export function registerCallCommand(program: Command): void {
  program
    .command('call')
    .description('call any operation of the API by its operationId or path, with fields from its schema')
    .argument('[operation]', "an operationId (transformJson), a path (/v1/json-transform, /v1/bins/bin_…/requests) or 'METHOD /path'")
    .argument('[fields...]', 'field=value pairs; field=@file reads a file, field=@@text sends @text')
    .option('--list', 'list every operation with its summary')
    .option('--json', "with --list, one JSON array; an operation's answer is printed as the service sent it either way")
    .option('--data <json|@file|->', 'the JSON body to start from (fields are set over it)')
    .helpOption(false)
    .option('-h, --help', 'show help; with OPERATION, its fields from the document')
    .addHelpText(
      'after',
      examples(
        'devutil call --list',
        'devutil call transformJson --help',
        `devutil call transformJson data='{"a":[1,2]}' expression='a[0]'`,
        'devutil call /v1/auth/hash data=hello algorithm=sha512',
        "devutil call 'GET /v1/bins/bin_…/requests' limit=5",
        'devutil call lookupGeoIp ip=8.8.8.8',
        'devutil call validateJsonSchema --data @request.json',
      ),
    )
    .action(
      action(async (name: string | undefined, args: string[], opts: CallOptions, command: Command) => {
        if (opts.help && name === undefined) {
          command.outputHelp();
          return 0;
        }
        if (!opts.list && name === undefined) throw new UsageError('devutil call needs an OPERATION (devutil call --list lists them)');
        const api = connect(command);
        const doc = await loadDocument(api);
        if (opts.list) {
          const rows = listOperations(doc).map((op) => ({
            operation: op.operationId,
            method: op.method,
            path: op.path,
            summary: op.summary ?? '',
          }));
          if (opts.json) printJson(rows);
          else printTable(rows, ['operation', 'method', 'path', 'summary']);
          return 0;
        }
        const found = findOperation(doc, name!);
        const { op } = found;
        if (opts.help) {
          printOperationHelp(op);
          return 0;
        }
        const { path, query, body } = buildRequest(found, args, opts.data);
        const res = await api.send(op.method, path, { query, body });
        if (!res.ok) throw await apiErrorOf(res, api.connection);
        const text = await res.text();
        const type = res.headers.get('content-type') ?? '';
        if (/json/.test(type) && text) printJson(JSON.parse(text));
        else if (text) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
        return 0;
      }),
    );
}
