import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { action, connect, examples } from '../command-kit.js';
import { ApiError, UnreachableError } from '../failures.js';
import { followBin, type CaptureSummary } from '../follow.js';
import { forwardCapture, parseForwardTarget, targetOf, type Capture, type Delivery } from '../forward.js';
import type { ApiClient } from '../http.js';
import { clockTime, note, paintFor, paintStatus, printable, say } from '../output.js';

/** Retries of a delivery whose target cannot be connected to: waits of 0.5, 1, 2, 4 and 8 s. */
export const DEFAULT_RETRIES = 5;

interface ListenOptions {
  forwardTo: string;
  bin?: string;
  name?: string;
  retries: number;
  json?: boolean;
}

interface BinAnswer {
  bin: { bin_id: string; catch_url: string };
  url?: string;
}

/** A whole number of retries, 0 to 100. */
export function parseRetries(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 100) throw new InvalidArgumentError('a whole number from 0 to 100');
  return Number(value);
}

/** The bin to listen on and its public catch URL: the one given, or a new one. */
async function openBin(api: ApiClient, opts: ListenOptions): Promise<{ binId: string; catchUrl: string }> {
  if (opts.bin) {
    const { bin } = await api.call<BinAnswer>('GET', `/v1/bins/${encodeURIComponent(opts.bin)}`);
    return { binId: bin.bin_id, catchUrl: new URL(bin.catch_url, `${api.connection.url}/`).href };
  }
  const { bin, url } = await api.call<BinAnswer>('POST', '/v1/bins', { body: opts.name ? { name: opts.name } : {} });
  return { binId: bin.bin_id, catchUrl: url ?? new URL(bin.catch_url, `${api.connection.url}/`).href };
}

/**
 * The full capture behind a stream event. A rate limit (429, a plan's requests per minute) is
 * waited out as the service asks, since skipping the capture would lose it.
 */
async function readCapture(api: ApiClient, binId: string, requestId: string, signal: AbortSignal): Promise<Capture> {
  for (;;) {
    try {
      return (await api.call<{ request: Capture }>('GET', `/v1/bins/${binId}/requests/${requestId}`)).request;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 429 || signal.aborted) throw err;
      const seconds = err.retryAfter ?? 1;
      note(`Rate limited (${err.code}): waiting ${seconds} s before reading ${requestId}`);
      await sleep(seconds * 1000, undefined, { signal }).catch(() => undefined);
    }
  }
}

/** `devutil listen`: forward every capture of a bin to a local URL, as CONTRACT §9 says. */
export function registerListenCommand(program: Command): void {
  program
    .command('listen')
    .description('forward every request a bin captures to a URL on this machine (creates the bin unless --bin)')
    .requiredOption(
      '--forward-to <url>',
      'where to send each capture: a URL, host:port[/path] or a port[/path] (http://localhost:PORT/path)',
    )
    .option('--bin <id>', 'listen on this bin instead of creating one')
    .option('--name <text>', 'name of the bin to create')
    .option(
      '--retries <n>',
      `retries when the target cannot be connected to (default ${DEFAULT_RETRIES}; waits 0.5, 1, 2, 4, 8 s)`,
      parseRetries,
      DEFAULT_RETRIES,
    )
    .option('--json', 'one JSON object per line per delivery (the Forwarding line goes to stderr)')
    .addHelpText(
      'after',
      `\nEach capture goes to the URL joined with its path after /v1/catch/<bin_id> and its query string, with the\n` +
        `captured method, headers (minus hop-by-hop ones, host and content-length) and exact body bytes, one at a\n` +
        `time in capture order. Any answer counts as delivered; a target that refuses the connection is retried,\n` +
        `then reported as failed. A dropped stream reconnects and resumes after the last capture handled.\n` +
        `Ctrl+C stops after the delivery in flight.` +
        examples(
          'devutil listen --forward-to http://localhost:3000/webhooks',
          'devutil listen --forward-to 3000/webhooks --bin bin_4fQ9xT2mZk8Lr0aBcDeFgH',
          'devutil listen --forward-to localhost:8000/hooks --json | jq .status',
        ),
    )
    .action(
      action(async (opts: ListenOptions, command: Command) => {
        const target = parseForwardTarget(opts.forwardTo);
        const api = connect(command);
        const { binId, catchUrl } = await openBin(api, opts);
        const paint = paintFor(process.stdout);
        const stop = new AbortController();
        let interrupts = 0;
        const onSigint = () => {
          // The first Ctrl+C lets the delivery in flight finish; a second one does not wait.
          if (++interrupts > 1) process.exit(130);
          note('Stopping after the delivery in flight (Ctrl+C again to quit at once)');
          stop.abort();
        };
        process.on('SIGINT', onSigint);
        process.on('SIGTERM', onSigint);

        const report = (summary: CaptureSummary, delivery: Delivery) => {
          if (opts.json) {
            const { request_id, method, query_string } = summary;
            const record = { time: new Date().toISOString(), request_id, method, path: delivery.shown, query_string, url: delivery.url };
            const outcome = { status: delivery.status, elapsed_ms: delivery.elapsedMs, attempts: delivery.attempts, error: delivery.error };
            return say(JSON.stringify({ ...record, ...outcome }));
          }
          const head = `${paint.dim(clockTime(new Date()))}  ${paint.bold(summary.method)} ${printable(delivery.shown)}`;
          if (delivery.error !== null) return say(`${head}  -> ${paint.red(`failed: ${delivery.error}`)}`);
          say(`${head}  -> ${paintStatus(paint, delivery.status!)}  ${Math.round(delivery.elapsedMs!)} ms`);
        };

        // Captures read ahead of their turn: their details are fetched while earlier ones are delivered.
        const fetched = new Map<string, Promise<Capture>>();
        const onAhead = (summary: CaptureSummary) => {
          const reading = readCapture(api, binId, summary.request_id, stop.signal);
          reading.catch(() => undefined);
          fetched.set(summary.request_id, reading);
        };

        const onCapture = async (summary: CaptureSummary) => {
          const reading = fetched.get(summary.request_id) ?? readCapture(api, binId, summary.request_id, stop.signal);
          fetched.delete(summary.request_id);
          if (stop.signal.aborted) return;
          let capture: Capture;
          try {
            capture = await reading;
          } catch (err) {
            // The service went away or is failing: the stream reconnects and brings this capture again.
            if (err instanceof UnreachableError || (err instanceof ApiError && err.status >= 500)) throw err;
            const { path, shown } = targetOf(target, summary);
            const error = err instanceof ApiError ? `capture not readable: ${err.detail}` : (err as Error).message;
            return report(summary, { shown, url: `${target.origin}${path}`, status: null, elapsedMs: null, error, attempts: 0 });
          }
          const delivery = await forwardCapture(target, capture, {
            retries: opts.retries,
            signal: stop.signal,
            onRetry: (attempt, delay, reason) =>
              note(
                `  ${capture.method} ${printable(targetOf(target, capture).shown)}: ${reason}; retrying in ${delay / 1000} s (attempt ${attempt} of ${opts.retries + 1})`,
              ),
          });
          report(summary, delivery);
        };

        const forwarding = `Forwarding ${catchUrl} -> ${target.href}`;
        note(`Connecting to ${api.connection.url}…`);
        const end = await followBin(api, binId, {
          signal: stop.signal,
          onOpen: (reconnected) => {
            // What was read ahead on the old connection comes again on this one.
            fetched.clear();
            if (reconnected) note('Reconnected');
            else if (opts.json) note(forwarding);
            else say(forwarding);
          },
          onProgress: note,
          onAhead,
          onCapture,
        });
        process.off('SIGINT', onSigint);
        process.off('SIGTERM', onSigint);
        if (end.reason === 'stopped') return 0;
        note(`The bin ${binId} was ${end.reason === 'bin_deleted' ? 'deleted' : 'expired'}: nothing more to forward`);
        return 1;
      }),
    );
}
