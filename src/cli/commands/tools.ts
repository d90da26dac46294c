import type { Command } from 'commander';
import { action, connect, examples } from '../command-kit.js';
import { UsageError } from '../failures.js';
import { printable, printJson, printResult, say } from '../output.js';
import { readInput } from '../values.js';
import { registerJwtCommands, registerTotpCommands } from './crypto-tools.js';

/** Parse standard input or a file as JSON for a tool; not JSON is a usage error. */
function readJsonInput(file: string | undefined): unknown {
  const text = readInput(file).toString('utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${file ?? 'standard input'} is not JSON: ${(err as Error).message}`);
  }
}

interface DnsRecord {
  [field: string]: unknown;
}

/** One DNS record as a line: its fields' values, in the API's order ({@link printable}: a zone's owner writes its TXT records). */
function recordLine(record: DnsRecord): string {
  return Object.values(record)
    .map((v) => printable(typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)))
    .join('  ');
}

/** The short forms of common tools (CONTRACT §9): jmespath, hash, base64, dns, jwt, totp. */
export function registerToolCommands(program: Command): void {
  program
    .command('jmespath')
    .description('query JSON with a JMESPath expression (reads standard input without FILE)')
    .argument('<expression>', 'JMESPath expression')
    .argument('[file]', 'JSON file (default: standard input)')
    .option('--json', 'print the whole API answer')
    .addHelpText(
      'after',
      examples(
        `devutil jmespath 'people[?age > \`40\`].name' people.json`,
        `curl -s https://api.example.com/items | devutil jmespath 'items[0].id'`,
      ),
    )
    .action(
      action(async (expression: string, file: string | undefined, opts: { json?: boolean }, command: Command) => {
        const data = readJsonInput(file);
        const answer = await connect(command).call<{ result: unknown }>('POST', '/v1/json-transform', { body: { data, expression } });
        printResult(answer, answer.result, opts.json);
        return 0;
      }),
    );

  program
    .command('hash')
    .description('hash a file or standard input, byte for byte (sha256 unless --algorithm)')
    .argument('[file]', 'file to hash, up to about 1.5 MiB: it travels as Base64 in a JSON body of at most 2 MiB (default: standard input)')
    .option('--algorithm <name>', 'md5, sha1, sha256, sha384, sha512, sha3-256, sha3-384, sha3-512, blake2b512, blake2s256', 'sha256')
    .option('--encoding <name>', 'hex or base64', 'hex')
    .option('--json', 'print the whole API answer')
    .addHelpText('after', examples('devutil hash release.tar.gz', 'printf hello | devutil hash --algorithm sha512 --encoding base64'))
    .action(
      action(async (file: string | undefined, opts: { algorithm: string; encoding: string; json?: boolean }, command: Command) => {
        const data = readInput(file).toString('base64');
        const body = { data, data_encoding: 'base64', algorithm: opts.algorithm, encoding: opts.encoding };
        const answer = await connect(command).call<{ hash: string }>('POST', '/v1/auth/hash', { body });
        printResult(answer, answer.hash, opts.json);
        return 0;
      }),
    );

  const base64 = program
    .command('base64')
    .description('Base64 encode or decode a file or standard input')
    .addHelpText('after', examples('printf hello | devutil base64 encode', 'echo aGVsbG8= | devutil base64 decode'));
  base64
    .command('encode')
    .description('encode bytes as Base64')
    .argument('[file]', 'file, up to about 1.5 MiB (default: standard input)')
    .option('--url-safe', 'the URL-safe alphabet (- and _)')
    .option('--no-padding', 'leave out the trailing =')
    .option('--json', 'print the whole API answer')
    .addHelpText('after', examples('printf hello | devutil base64 encode', 'devutil base64 encode --url-safe --no-padding key.bin'))
    .action(
      action(async (file: string | undefined, opts: { urlSafe?: boolean; padding: boolean; json?: boolean }, command: Command) => {
        const body = {
          data: readInput(file).toString('base64'),
          data_encoding: 'base64',
          url_safe: opts.urlSafe === true,
          padding: opts.padding,
        };
        const answer = await connect(command).call<{ result: string }>('POST', '/v1/auth/base64-encode', { body });
        printResult(answer, answer.result, opts.json);
        return 0;
      }),
    );
  base64
    .command('decode')
    .description('decode Base64 (standard or URL-safe) and write the bytes')
    .argument('[file]', 'file holding the Base64 text (default: standard input)')
    .option('--json', 'print the whole API answer')
    .addHelpText('after', examples('echo aGVsbG8= | devutil base64 decode', 'devutil base64 decode token.txt > token.bin'))
    .action(
      action(async (file: string | undefined, opts: { json?: boolean }, command: Command) => {
        const data = readInput(file).toString('utf8').trim();
        const answer = await connect(command).call<{ result: string; result_encoding: 'utf8' | 'hex' }>('POST', '/v1/auth/base64-decode', {
          body: { data },
        });
        if (opts.json) printJson(answer);
        else process.stdout.write(Buffer.from(answer.result, answer.result_encoding === 'hex' ? 'hex' : 'utf8'));
        return 0;
      }),
    );

  program
    .command('dns')
    .description('look up DNS records (A unless TYPE): one record per line')
    .argument('<domain>', 'domain name')
    .argument('[type]', 'A, AAAA, CNAME, MX, NS, TXT, SOA, SRV, CAA, PTR, SPF, DMARC, DKIM', 'A')
    .option('--selector <name>', 'DKIM selector')
    .option('--json', 'print the whole API answer')
    .addHelpText(
      'after',
      examples('devutil dns example.com', 'devutil dns example.com MX', 'devutil dns example.com DKIM --selector google'),
    )
    .action(
      action(async (domain: string, type: string, opts: { selector?: string; json?: boolean }, command: Command) => {
        const answer = await connect(command).call<{ records: DnsRecord[] }>('GET', '/v1/lookup', {
          query: { domain, type, selector: opts.selector },
        });
        if (opts.json) printJson(answer);
        else for (const record of answer.records) say(recordLine(record));
        return 0;
      }),
    );

  registerJwtCommands(program);
  registerTotpCommands(program);
}
