import { Command, CommanderError } from 'commander';
import { registerBinCommands } from './commands/bins.js';
import { registerCallCommand } from './commands/call.js';
import { registerListenCommand } from './commands/listen.js';
import { registerLoginCommands } from './commands/login.js';
import { registerMockCommands } from './commands/mocks.js';
import { registerRequestCommands } from './commands/requests.js';
import { registerServerCommands } from './commands/server.js';
import { registerTailCommand } from './commands/tail.js';
import { registerToolCommands } from './commands/tools.js';
import { CliFailure } from './failures.js';
import { examples, takeActionCode, type ActionResult } from './command-kit.js';

/** The `devutil` program: every command, exits mapped to CONTRACT §9's codes by {@link runCli}. */
export function createProgram(): Command {
  const program = new Command('devutil')
    .description('The devutil service and its command-line client.')
    .option('--url <url>', 'service URL (else DEVUTIL_URL, else the saved login)')
    .option('--key <key>', 'API key (else DEVUTIL_KEY, else the saved login)')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .addHelpText(
      'after',
      `\nExit codes: 0 success, 1 the service answered an error, 2 usage error, 3 the service could not be reached.\n` +
        examples(
          'devutil login --url http://127.0.0.1:8080',
          'devutil listen --forward-to http://localhost:3000/webhooks',
          'devutil call transformJson data=\'{"a":1}\' expression=a',
        ),
    );
  registerServerCommands(program);
  registerLoginCommands(program);
  registerListenCommand(program);
  registerTailCommand(program);
  registerBinCommands(program);
  registerRequestCommands(program);
  registerMockCommands(program);
  registerCallCommand(program);
  registerToolCommands(program);
  return program;
}

/**
 * Run the program on `argv` (without node and the script) and return the exit code, or undefined
 * when the command keeps the process running (serve). Failures are printed on stderr here.
 */
export async function runCli(argv: string[]): Promise<ActionResult> {
  const program = createProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return takeActionCode();
  } catch (err) {
    // Commander has already printed its message; help and version are not failures.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof CliFailure) {
      process.stderr.write(`${err.message}\n`);
      return err.exitCode;
    }
    process.stderr.write(`devutil: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}
