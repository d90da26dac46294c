import type { Command } from 'commander';
import { action, connect, examples, pageOptions } from '../command-kit.js';
import { note, printFields, printJson, printTable, say } from '../output.js';
import { wholeNumber } from '../values.js';

interface Bin {
  bin_id: string;
  name: string;
  created_at: string;
  expires_at: string;
  request_count: number;
  catch_url: string;
}

type Json = { json?: boolean };

/** `devutil bins create|list|show|delete` (CONTRACT §2.1). */
export function registerBinCommands(program: Command): void {
  const bins = program
    .command('bins')
    .description('request bins: create, list, show, delete')
    .addHelpText('after', examples('URL=$(devutil bins create --name stripe)', 'devutil bins list', 'devutil bins delete bin_…'));

  bins
    .command('create')
    .description('create a bin and print its public catch URL')
    .option('--name <text>', 'a name (at most 128 characters)')
    .option('--ttl <seconds>', 'lifetime, 60 to 172800 (default 86400)', wholeNumber(0, Number.MAX_SAFE_INTEGER))
    .option('--json', 'print the API answer')
    .addHelpText('after', examples('devutil bins create', 'curl -d hello "$(devutil bins create --ttl 3600)"'))
    .action(
      action(async (opts: Json & { name?: string; ttl?: number }, command: Command) => {
        const answer = await connect(command).call<{ bin: Bin; url: string }>('POST', '/v1/bins', {
          body: { ...(opts.name !== undefined && { name: opts.name }), ...(opts.ttl !== undefined && { ttl_seconds: opts.ttl }) },
        });
        if (opts.json) printJson(answer);
        else {
          say(answer.url);
          note(`Created ${answer.bin.bin_id}, expires ${answer.bin.expires_at}`);
        }
        return 0;
      }),
    );

  pageOptions(bins.command('list').description('list your bins, newest first'))
    .option('--json', 'print the API answer')
    .addHelpText('after', examples('devutil bins list --limit 10'))
    .action(
      action(async (opts: Json & { limit?: number; offset?: number }, command: Command) => {
        const answer = await connect(command).call<{ total: number; bins: Bin[] }>('GET', '/v1/bins', {
          query: { limit: opts.limit, offset: opts.offset },
        });
        if (opts.json) printJson(answer);
        else {
          printTable(
            answer.bins.map((b) => ({ id: b.bin_id, name: b.name, requests: b.request_count, expires: b.expires_at })),
            ['id', 'name', 'requests', 'expires'],
          );
          note(`${answer.bins.length} of ${answer.total}`);
        }
        return 0;
      }),
    );

  bins
    .command('show')
    .description('show one bin')
    .argument('<bin>', 'bin id')
    .option('--json', 'print the API answer')
    .addHelpText('after', examples('devutil bins show bin_…'))
    .action(
      action(async (binId: string, opts: Json, command: Command) => {
        const answer = await connect(command).call<{ bin: Bin }>('GET', `/v1/bins/${encodeURIComponent(binId)}`);
        if (opts.json) printJson(answer);
        else printFields({ ...answer.bin });
        return 0;
      }),
    );

  bins
    .command('delete')
    .description('delete a bin and its captures')
    .argument('<bin>', 'bin id')
    .option('--json', 'print the API answer')
    .addHelpText('after', examples('devutil bins delete bin_…'))
    .action(
      action(async (binId: string, opts: Json, command: Command) => {
        const answer = await connect(command).call<{ message: string; bin_id: string }>('DELETE', `/v1/bins/${encodeURIComponent(binId)}`);
        if (opts.json) printJson(answer);
        else say(`Deleted ${answer.bin_id}`);
        return 0;
      }),
    );
}
