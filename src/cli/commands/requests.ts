import type { Command } from 'commander';
import { printCaptureFull, subPathOf, type CaptureView } from '../capture-view.js';
import { action, connect, examples, pageOptions } from '../command-kit.js';
import { note, paintFor, paintStatus, printable, printJson, printTable, say } from '../output.js';
import { collectHeader } from '../values.js';

type Json = { json?: boolean };

interface ReplayAnswer {
  replayed_to: string;
  response_status: number;
  response_headers: Record<string, string>;
  response_body: string;
  response_truncated: boolean;
  elapsed_ms: number;
}

const isoClock = (date: Date) => date.toISOString();

/** `devutil requests list|show|clear` and `devutil replay` (CONTRACT §2.3, §2.4). */
export function registerRequestCommands(program: Command): void {
  const requests = program
    .command('requests')
    .description("a bin's captured requests: list, show, clear")
    .addHelpText(
      'after',
      examples('devutil requests list bin_…', 'devutil requests show bin_… req_…', 'devutil requests show bin_… req_… --body > body.bin'),
    );

  pageOptions(requests.command('list').description("list a bin's captures, newest first").argument('<bin>', 'bin id'))
    .option('--json', 'print the API answer')
    .addHelpText('after', examples('devutil requests list bin_… --limit 5'))
    .action(
      action(async (binId: string, opts: Json & { limit?: number; offset?: number }, command: Command) => {
        const answer = await connect(command).call<{ total: number; requests: CaptureView[] }>(
          'GET',
          `/v1/bins/${encodeURIComponent(binId)}/requests`,
          {
            query: { limit: opts.limit, offset: opts.offset },
          },
        );
        if (opts.json) printJson(answer);
        else {
          const rows = answer.requests.map((r) => ({
            id: r.request_id,
            time: r.timestamp,
            method: r.method,
            size: r.content_length,
            path: subPathOf(r),
          }));
          printTable(rows, ['id', 'time', 'method', 'size', 'path']);
          note(`${answer.requests.length} of ${answer.total}`);
        }
        return 0;
      }),
    );

  requests
    .command('show')
    .description('show one capture: its headers and body (the newest when REQ is left out; exit 1 when the bin has none)')
    .argument('<bin>', 'bin id')
    .argument('[req]', 'request id')
    .option('--body', 'write only the body, its exact bytes')
    .option('--json', 'print the API answer')
    .addHelpText('after', examples('devutil requests show bin_… req_…', 'devutil requests show bin_… --body | jq .'))
    .action(
      action(async (binId: string, requestId: string | undefined, opts: Json & { body?: boolean }, command: Command) => {
        const api = connect(command);
        const bin = encodeURIComponent(binId);
        if (requestId === undefined) {
          const newest = await api.call<{ requests: CaptureView[] }>('GET', `/v1/bins/${bin}/requests`, { query: { limit: 1 } });
          if (newest.requests.length === 0) {
            note(`${binId} has no captured requests`);
            return 1;
          }
          requestId = newest.requests[0]!.request_id;
        }
        const answer = await api.call<{ request: CaptureView }>('GET', `/v1/bins/${bin}/requests/${encodeURIComponent(requestId)}`);
        const { request } = answer;
        if (opts.json) printJson(answer);
        else if (opts.body) process.stdout.write(Buffer.from(request.body ?? '', request.body_encoding === 'base64' ? 'base64' : 'utf8'));
        else printCaptureFull(request, paintFor(process.stdout), isoClock);
        return 0;
      }),
    );

  requests
    .command('clear')
    .description("delete a bin's captured requests (the bin stays)")
    .argument('<bin>', 'bin id')
    .option('--json', 'print the API answer')
    .addHelpText('after', examples('devutil requests clear bin_…'))
    .action(
      action(async (binId: string, opts: Json, command: Command) => {
        const answer = await connect(command).call<{ deleted: number }>('DELETE', `/v1/bins/${encodeURIComponent(binId)}/requests`);
        if (opts.json) printJson(answer);
        else say(`Deleted ${answer.deleted} requests of ${binId}`);
        return 0;
      }),
    );

  program
    .command('replay')
    .description('send a captured request again, from the service, to a URL (public addresses unless the service allows others)')
    .argument('<bin>', 'bin id')
    .argument('<req>', 'request id')
    .requiredOption('--to <url>', 'target URL (absolute http or https)')
    .option('--method <method>', 'send with this method instead')
    .option('--header <line>', "add or replace a header, 'Name: value' (repeatable)", collectHeader)
    .option('--json', 'print the API answer')
    .addHelpText(
      'after',
      `\nTo send captures to this machine, use devutil listen: the service refuses loopback and private targets.` +
        examples(
          'devutil replay bin_… req_… --to https://staging.example.com/webhooks',
          "devutil replay bin_… req_… --to https://example.com/hook --header 'X-Debug: 1'",
        ),
    )
    .action(
      action(
        async (
          binId: string,
          requestId: string,
          opts: Json & { to: string; method?: string; header?: Record<string, string> },
          command: Command,
        ) => {
          const body = { target_url: opts.to, ...(opts.method && { method: opts.method }), ...(opts.header && { headers: opts.header }) };
          const answer = await connect(command).call<ReplayAnswer>(
            'POST',
            `/v1/bins/${encodeURIComponent(binId)}/requests/${encodeURIComponent(requestId)}/replay`,
            { body },
          );
          if (opts.json) printJson(answer);
          else {
            const paint = paintFor(process.stdout);
            say(`${answer.replayed_to}  -> ${paintStatus(paint, answer.response_status)}  ${Math.round(answer.elapsed_ms)} ms`);
            if (answer.response_body) say(printable(answer.response_body) + (answer.response_truncated ? '\n(truncated)' : ''));
          }
          return 0;
        },
      ),
    );
}
