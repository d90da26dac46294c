import type { Command } from 'commander';
import { captureLine, printCaptureFull, type CaptureView } from '../capture-view.js';
import { action, connect, examples } from '../command-kit.js';
import { ApiError } from '../failures.js';
import { followBin } from '../follow.js';
import { clockTime, note, paintFor, say } from '../output.js';

/** `devutil tail BIN`: a bin's live captures, one line each (CONTRACT §9). */
export function registerTailCommand(program: Command): void {
  program
    .command('tail')
    .description("print a bin's captures as they arrive, one line each")
    .argument('<bin>', 'bin id')
    .option('--full', "add each capture's headers and body")
    .option('--json', 'one JSON object per line per capture (the full capture with --full)')
    .addHelpText(
      'after',
      `\nA dropped stream reconnects and resumes after the last capture printed. Ctrl+C stops.` +
        examples(
          'devutil tail bin_4fQ9xT2mZk8Lr0aBcDeFgH',
          'devutil tail bin_4fQ9xT2mZk8Lr0aBcDeFgH --full',
          'devutil tail bin_… --json | jq -r .path',
        ),
    )
    .action(
      action(async (binId: string, opts: { full?: boolean; json?: boolean }, command: Command) => {
        const api = connect(command);
        await api.call('GET', `/v1/bins/${encodeURIComponent(binId)}`);
        const paint = paintFor(process.stdout);
        const stop = new AbortController();
        const onSignal = () => stop.abort();
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
        note(`Connecting to ${api.connection.url}…`);
        const end = await followBin(api, binId, {
          signal: stop.signal,
          onOpen: (reconnected) => note(reconnected ? 'Reconnected' : `Tailing ${binId} (Ctrl+C to stop)`),
          onProgress: note,
          onCapture: async (summary) => {
            let capture = summary as CaptureView;
            if (opts.full) {
              try {
                capture = (await api.call<{ request: CaptureView }>('GET', `/v1/bins/${binId}/requests/${summary.request_id}`)).request;
              } catch (err) {
                // Evicted or cleared meanwhile: the summary is all there is; an unreachable service reconnects.
                if (!(err instanceof ApiError)) throw err;
                note(`${summary.request_id} is no longer retained: ${err.detail}`);
              }
            }
            if (opts.json) say(JSON.stringify(capture));
            else if (opts.full) printCaptureFull(capture, paint, clockTime);
            else say(captureLine(capture, paint, clockTime));
          },
        });
        if (end.reason === 'stopped') return 0;
        note(`The bin ${binId} was ${end.reason === 'bin_deleted' ? 'deleted' : 'expired'}`);
        return 1;
      }),
    );
}
