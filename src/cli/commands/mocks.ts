import { isUtf8 } from 'node:buffer';
import { Option, type Command } from 'commander';
import { action, connect, examples, pageOptions } from '../command-kit.js';
import { UsageError } from '../failures.js';
import { note, printFields, printJson, printTable, say } from '../output.js';
import { collectHeader, readJson, readValue, wholeNumber } from '../values.js';

interface Mock {
  mock_id: string;
  name: string;
  status_code: number;
  method: string | null;
  path: string | null;
  hit_count: number;
  expires_at: string;
}

interface MockFlags {
  name?: string;
  status?: number;
  contentType?: string;
  header?: Record<string, string>;
  body?: string;
  responseBody?: string;
  delay?: number;
  method?: string;
  path?: string;
  ttl?: number;
  json?: boolean;
}

/** The configurable fields of `POST /v1/mocks` and `PATCH /v1/mocks/{id}` (CONTRACT §2.5), one flag each. */
function mockFlags(command: Command, forUpdate: boolean): Command {
  command
    .option('--name <text>', 'a name')
    .option('--status <code>', 'status code, 100 to 599 (default 200)', wholeNumber(0, 999))
    .option('--content-type <type>', 'content type (default application/json)')
    .option('--header <line>', "a response header, 'Name: value' (repeatable; on update, replaces all headers)", collectHeader)
    .addOption(new Option('--body <text|@file|->', 'response body: text, @file or - for standard input').conflicts('responseBody'))
    .option('--response-body <json|@file>', 'response body as a JSON value, served JSON-encoded')
    .option('--delay <ms>', 'delay before answering, 0 to 30000', wholeNumber(0, Number.MAX_SAFE_INTEGER))
    .option('--method <method>', 'answer only this method (others get 405)')
    .option('--path <path>', 'answer only at this sub-path, e.g. /users/1')
    .option('--ttl <seconds>', 'lifetime, 60 to 172800 (default 86400)', wholeNumber(0, Number.MAX_SAFE_INTEGER))
    .option('--json', 'print the API answer');
  if (forUpdate) command.option('--any-method', 'answer every method again').option('--any-path', 'answer at every sub-path again');
  return command;
}

/** A mock's body is text: bytes that are not UTF-8 are refused rather than served with U+FFFD in their place. */
function mockBodyText(raw: string): string {
  const bytes = readValue(raw);
  if (!isUtf8(bytes)) throw new UsageError(`--body ${raw}: not UTF-8 text (a mock's body is text; binary bodies are not served)`);
  return bytes.toString('utf8');
}

/** The request body of the flags given (and only those, so an update changes nothing else). */
function mockBody(flags: MockFlags & { anyMethod?: boolean; anyPath?: boolean }): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (flags.name !== undefined) body.name = flags.name;
  if (flags.status !== undefined) body.status_code = flags.status;
  if (flags.contentType !== undefined) body.content_type = flags.contentType;
  if (flags.header !== undefined) body.headers = flags.header;
  if (flags.body !== undefined) body.body = mockBodyText(flags.body);
  if (flags.responseBody !== undefined) body.response_body = readJson(flags.responseBody, '--response-body');
  if (flags.delay !== undefined) body.delay_ms = flags.delay;
  if (flags.method !== undefined) body.method = flags.method;
  if (flags.path !== undefined) body.path = flags.path;
  if (flags.anyMethod) body.method = null;
  if (flags.anyPath) body.path = null;
  if (flags.ttl !== undefined) body.ttl_seconds = flags.ttl;
  return body;
}

/** `devutil mocks create|list|show|update|delete` (CONTRACT §2.5). */
export function registerMockCommands(program: Command): void {
  const mocks = program
    .command('mocks')
    .description('mock endpoints: create, list, show, update, delete')
    .addHelpText(
      'after',
      examples(
        `devutil mocks create --status 201 --body @reply.json --header 'X-A: 1'`,
        'devutil mocks update mock_… --status 503 --delay 2000',
        'devutil mocks list',
      ),
    );

  mockFlags(mocks.command('create').description('create a mock and print its serving URL'), false)
    .addHelpText(
      'after',
      examples(
        `devutil mocks create --name paid --body '{"status":"paid"}'`,
        `devutil mocks create --method POST --path /charge --status 402 --body @error.json`,
      ),
    )
    .action(
      action(async (flags: MockFlags, command: Command) => {
        const answer = await connect(command).call<{ mock: Mock; url: string }>('POST', '/v1/mocks', { body: mockBody(flags) });
        if (flags.json) printJson(answer);
        else {
          say(answer.url);
          note(`Created ${answer.mock.mock_id}, expires ${answer.mock.expires_at}`);
        }
        return 0;
      }),
    );

  pageOptions(mocks.command('list').description('list your mocks'))
    .option('--json', 'print the API answer')
    .addHelpText('after', examples('devutil mocks list', "devutil mocks list --json | jq -r '.mocks[].mock_id'"))
    .action(
      action(async (opts: { json?: boolean; limit?: number; offset?: number }, command: Command) => {
        const answer = await connect(command).call<{ total: number; mocks: Mock[] }>('GET', '/v1/mocks', {
          query: { limit: opts.limit, offset: opts.offset },
        });
        if (opts.json) printJson(answer);
        else {
          const rows = answer.mocks.map((m) => ({
            id: m.mock_id,
            name: m.name,
            status: m.status_code,
            method: m.method ?? '*',
            path: m.path ?? '*',
            hits: m.hit_count,
          }));
          printTable(rows, ['id', 'name', 'status', 'method', 'path', 'hits']);
          note(`${answer.mocks.length} of ${answer.total}`);
        }
        return 0;
      }),
    );

  mocks
    .command('show')
    .description('show one mock')
    .argument('<mock>', 'mock id')
    .option('--json', 'print the API answer')
    .addHelpText('after', examples('devutil mocks show mock_…'))
    .action(
      action(async (mockId: string, opts: { json?: boolean }, command: Command) => {
        const answer = await connect(command).call<{ mock: Record<string, unknown> }>('GET', `/v1/mocks/${encodeURIComponent(mockId)}`);
        if (opts.json) printJson(answer);
        else printFields(answer.mock);
        return 0;
      }),
    );

  mockFlags(mocks.command('update').description('change the fields given, keep the others').argument('<mock>', 'mock id'), true)
    .addHelpText('after', examples('devutil mocks update mock_… --status 503 --delay 2000', 'devutil mocks update mock_… --any-method'))
    .action(
      action(async (mockId: string, flags: MockFlags, command: Command) => {
        const answer = await connect(command).call<{ mock: Record<string, unknown> }>('PATCH', `/v1/mocks/${encodeURIComponent(mockId)}`, {
          body: mockBody(flags),
        });
        if (flags.json) printJson(answer);
        else printFields(answer.mock);
        return 0;
      }),
    );

  mocks
    .command('delete')
    .description('delete a mock')
    .argument('<mock>', 'mock id')
    .option('--json', 'print the API answer')
    .addHelpText('after', examples('devutil mocks delete mock_…'))
    .action(
      action(async (mockId: string, opts: { json?: boolean }, command: Command) => {
        const answer = await connect(command).call<{ mock_id?: string }>('DELETE', `/v1/mocks/${encodeURIComponent(mockId)}`);
        if (opts.json) printJson(answer);
        else say(`Deleted ${mockId}`);
        return 0;
      }),
    );
}
