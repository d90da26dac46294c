import type { Command } from 'commander';
import { action, examples } from '../command-kit.js';
import { configPath, forgetConnection, normaliseUrl, saveConnection } from '../connection.js';
import { CliFailure, UsageError } from '../failures.js';
import { ApiClient } from '../http.js';
import { note, say } from '../output.js';

/** Read everything on standard input (a key piped in). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Ask for a secret on the terminal without echoing it; Ctrl+C cancels. */
function promptHidden(question: string): Promise<string> {
  const input = process.stdin;
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (done: () => void) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      done();
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish(() => resolve(typed));
        if (char === '\u0003') return finish(() => reject(new CliFailure('cancelled', 130)));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    // Raw mode before the question: whatever is typed once it shows is never echoed.
    input.setRawMode(true);
    process.stderr.write(question);
    input.resume();
    input.on('data', onData);
  });
}

interface Account {
  key_id: string;
  name: string;
  plan: string;
}

/** `devutil login` and `devutil logout`: the saved connection of CONTRACT §9. */
export function registerLoginCommands(program: Command): void {
  program
    .command('login')
    .description('check a key against the service and save the URL and key for the other commands')
    .addHelpText(
      'after',
      `\nWithout --key the key is asked for (not echoed) on a terminal, or read from standard input.\n` +
        `Saved to ${configPath()} (mode 0600); DEVUTIL_URL and DEVUTIL_KEY override it.` +
        examples('devutil login --url http://127.0.0.1:8080', 'echo "$KEY" | devutil login --url https://devutil.example.com'),
    )
    .action(
      action(async (_opts: unknown, command: Command) => {
        const flags = command.optsWithGlobals<{ url?: string; key?: string }>();
        const raw = flags.url ?? process.env.DEVUTIL_URL;
        if (!raw) throw new UsageError('devutil login needs --url URL (the service to log in to)');
        const url = normaliseUrl(raw);
        let key = flags.key;
        if (key === undefined) key = (process.stdin.isTTY ? await promptHidden('API key: ') : await readStdin()).trim();
        if (!key) throw new UsageError('no API key given (pass --key, type it, or pipe it on standard input)');
        const account = await new ApiClient({ url, key }).call<Account>('GET', '/v1/account');
        const path = saveConnection({ url, key });
        say(`Logged in to ${url} as ${account.name || account.key_id} (plan ${account.plan}).`);
        note(`Saved to ${path}`);
        return 0;
      }),
    );

  program
    .command('logout')
    .description('forget the saved URL and key')
    .addHelpText('after', examples('devutil logout'))
    .action(
      action(() => {
        const path = configPath();
        say(forgetConnection() ? `Logged out: removed ${path}` : `Not logged in (no ${path})`);
        return 0;
      }),
    );
}
