import type { Command } from 'commander';
import { resolveConnection } from './connection.js';
import { ApiClient } from './http.js';
import { wholeNumber } from './values.js';

/** What a command's action returns: an exit code, or nothing when it keeps running (serve). */
export type ActionResult = number | undefined;

/** The API client for a command, from `--url` / `--key`, the environment or the config file. */
export function connect(command: Command): ApiClient {
  const { url, key } = command.optsWithGlobals<{ url?: string; key?: string }>();
  return new ApiClient(resolveConnection({ url, key }));
}

/**
 * Format a command's examples for the end of its `--help`.
 *
 * @example
 *   examples('devutil bins list') // '\nExamples:\n  $ devutil bins list'
 */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}`;
}

/** The action's code, stashed where {@link runCli} finds it (commander drops return values). */
let actionCode: ActionResult = 0;

/** Wrap an action so its returned exit code reaches {@link runCli}. */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<ActionResult> | ActionResult) {
  return async (...args: A) => {
    actionCode = await fn(...args);
  };
}

/** The code the last action returned (0 when it returned none). */
export function takeActionCode(): ActionResult {
  return actionCode;
}

/** Add the `--limit` / `--offset` pair of list endpoints (CONTRACT §2.3). */
export function pageOptions(command: Command): Command {
  return command
    .option('--limit <n>', 'at most this many (1 to 200, default 50)', wholeNumber(1, 200))
    .option('--offset <n>', 'skip this many', wholeNumber(0, Number.MAX_SAFE_INTEGER));
}
