import type { Command } from 'commander';
import { action, connect, examples } from '../command-kit.js';
import { UsageError } from '../failures.js';
import { note, printJson, printResult, say } from '../output.js';
import { readInput, readJson, readText, wholeNumber } from '../values.js';

/** A token from the argument, else standard input. */
function tokenOf(arg: string | undefined): string {
  const token = (arg ?? readInput(undefined).toString('utf8')).trim();
  if (!token) throw new UsageError('no token given (pass it, or pipe it on standard input)');
  return token;
}

/** A key flag's value: `@file` or `-` reads it, a `{...}` value is a JWK. */
function keyValue(raw: string): unknown {
  const text = readText(raw).trim();
  return text.startsWith('{') ? readJson(text, 'the key') : text;
}

interface Verdict {
  valid: boolean;
  reason?: string;
  error?: string;
}

/** Print a verification verdict; invalid exits 1, so `&&` in a script stops on it. */
function reportVerdict(answer: Verdict, json: boolean | undefined, detail: string): number {
  if (json) printJson(answer);
  else if (answer.valid) say(`valid${detail}`);
  else say(`invalid${answer.reason ? ` (${answer.reason})` : ''}${answer.error ? `: ${answer.error}` : ''}`);
  return answer.valid ? 0 : 1;
}

/** `devutil jwt decode|verify|sign`. */
export function registerJwtCommands(program: Command): void {
  const jwt = program
    .command('jwt')
    .description('decode, verify or sign JSON Web Tokens')
    .addHelpText(
      'after',
      examples(
        'devutil jwt decode "$TOKEN"',
        'devutil jwt verify "$TOKEN" --secret "$SECRET"',
        `devutil jwt sign '{"sub":"42"}' --secret "$SECRET"`,
      ),
    );
  jwt
    .command('decode')
    .description('decode a token without verifying it: its header and payload')
    .argument('[token]', 'the token (default: standard input)')
    .option('--json', 'print the whole API answer (signature included)')
    .addHelpText('after', examples('devutil jwt decode eyJhbGciOi...', 'pbpaste | devutil jwt decode'))
    .action(
      action(async (token: string | undefined, opts: { json?: boolean }, command: Command) => {
        const answer = await connect(command).call<{ header: unknown; payload: unknown }>('POST', '/v1/auth/jwt-decode', {
          body: { token: tokenOf(token) },
        });
        printJson(opts.json ? answer : { header: answer.header, payload: answer.payload });
        return 0;
      }),
    );

  jwt
    .command('verify')
    .description('verify a token\'s signature and claims; prints "valid" (exit 0) or "invalid (reason)" (exit 1)')
    .argument('[token]', 'the token (default: standard input)')
    .option('--secret <text|@file>', 'the HMAC secret (HS*)')
    .option('--public-key <pem|jwk|@file>', 'the public key (RS*, PS*, ES*, EdDSA)')
    .option('--algorithm <alg...>', 'accept only these algorithms')
    .option('--issuer <iss>', 'required issuer')
    .option('--audience <aud>', 'required audience')
    .option('--json', 'print the whole API answer')
    .addHelpText(
      'after',
      examples('devutil jwt verify "$TOKEN" --secret "$SECRET"', 'devutil jwt verify "$TOKEN" --public-key @public.pem --algorithm RS256'),
    )
    .action(
      action(
        async (
          token: string | undefined,
          opts: { secret?: string; publicKey?: string; algorithm?: string[]; issuer?: string; audience?: string; json?: boolean },
          command: Command,
        ) => {
          if (!opts.secret && !opts.publicKey) throw new UsageError('pass --secret or --public-key');
          const body = {
            token: tokenOf(token),
            ...(opts.secret !== undefined && { secret: readText(opts.secret) }),
            ...(opts.publicKey !== undefined && { public_key: keyValue(opts.publicKey) }),
            ...(opts.algorithm && { algorithms: opts.algorithm }),
            ...(opts.issuer && { issuer: opts.issuer }),
            ...(opts.audience && { audience: opts.audience }),
          };
          const answer = await connect(command).call<Verdict>('POST', '/v1/auth/jwt-verify', { body });
          return reportVerdict(answer, opts.json, '');
        },
      ),
    );

  jwt
    .command('sign')
    .description('sign a payload and print the token alone')
    .argument('[payload]', 'the payload JSON, or @file (default: standard input)')
    .option('--secret <text|@file>', 'the HMAC secret (HS*)')
    .option('--private-key <pem|jwk|@file>', 'the private key (RS*, PS*, ES*, EdDSA)')
    .option('--algorithm <alg>', 'HS256 (default), HS384, HS512, RS256, ..., ES256, ..., EdDSA')
    .option('--expires-in <seconds>', 'add exp this many seconds from now', wholeNumber(0, Number.MAX_SAFE_INTEGER))
    .option('--issuer <iss>', 'iss claim')
    .option('--subject <sub>', 'sub claim')
    .option('--audience <aud>', 'aud claim')
    .option('--json', 'print the whole API answer')
    .addHelpText(
      'after',
      examples(
        `devutil jwt sign '{"sub":"42"}' --secret "$SECRET" --expires-in 3600`,
        'devutil jwt sign @claims.json --private-key @key.pem --algorithm ES256',
      ),
    )
    .action(
      action(
        async (
          payload: string | undefined,
          opts: {
            secret?: string;
            privateKey?: string;
            algorithm?: string;
            expiresIn?: number;
            issuer?: string;
            subject?: string;
            audience?: string;
            json?: boolean;
          },
          command: Command,
        ) => {
          const claims = payload === undefined ? readJson('-', 'the payload') : readJson(payload, 'the payload');
          const body = {
            payload: claims,
            ...(opts.algorithm && { algorithm: opts.algorithm }),
            ...(opts.secret !== undefined && { secret: readText(opts.secret) }),
            ...(opts.privateKey !== undefined && { private_key: keyValue(opts.privateKey) }),
            ...(opts.expiresIn !== undefined && { expires_in: opts.expiresIn }),
            ...(opts.issuer && { issuer: opts.issuer }),
            ...(opts.subject && { subject: opts.subject }),
            ...(opts.audience && { audience: opts.audience }),
          };
          const answer = await connect(command).call<{ token: string }>('POST', '/v1/auth/jwt-generate', { body });
          printResult(answer, answer.token, opts.json);
          return 0;
        },
      ),
    );
}

/** `devutil totp generate|verify`. */
export function registerTotpCommands(program: Command): void {
  const totp = program
    .command('totp')
    .description('TOTP secrets and codes (RFC 6238)')
    .addHelpText(
      'after',
      examples('devutil totp generate --issuer Acme --account ada@example.com', 'devutil totp verify 123456 --secret JBSWY3DPEHPK3PXP'),
    );
  totp
    .command('generate')
    .description('generate a secret: prints the secret and its otpauth:// URI')
    .option('--issuer <name>', 'issuer shown by authenticator apps')
    .option('--account <name>', 'account shown by authenticator apps')
    .option('--digits <n>', '6 or 8', wholeNumber(0, 99))
    .option('--period <seconds>', 'step length (default 30)', wholeNumber(0, Number.MAX_SAFE_INTEGER))
    .option('--algorithm <name>', 'SHA1 (default), SHA256, SHA512')
    .option('--json', 'print the whole API answer (the QR code included)')
    .addHelpText('after', examples('devutil totp generate --issuer Acme --account ada@example.com'))
    .action(
      action(
        async (
          opts: { issuer?: string; account?: string; digits?: number; period?: number; algorithm?: string; json?: boolean },
          command: Command,
        ) => {
          const { json, ...query } = opts;
          const answer = await connect(command).call<{ secret: string; otpauth_uri: string }>('GET', '/v1/auth/totp-generate', { query });
          if (json) printJson(answer);
          else {
            say(answer.secret);
            note(answer.otpauth_uri);
          }
          return 0;
        },
      ),
    );

  totp
    .command('verify')
    .description('check a code against a secret; prints "valid" (exit 0) or "invalid" (exit 1)')
    .argument('<code>', 'the code')
    .requiredOption('--secret <base32>', 'the base32 secret')
    .option('--window <steps>', 'steps accepted either side (default 1)', wholeNumber(0, 100))
    .option('--digits <n>', '6 or 8', wholeNumber(0, 99))
    .option('--period <seconds>', 'step length (default 30)', wholeNumber(0, Number.MAX_SAFE_INTEGER))
    .option('--algorithm <name>', 'SHA1 (default), SHA256, SHA512')
    .option('--json', 'print the whole API answer')
    .addHelpText('after', examples('devutil totp verify 123456 --secret JBSWY3DPEHPK3PXP'))
    .action(
      action(
        async (
          code: string,
          opts: { secret: string; window?: number; digits?: number; period?: number; algorithm?: string; json?: boolean },
          command: Command,
        ) => {
          const { json, ...rest } = opts;
          const answer = await connect(command).call<Verdict & { delta: number | null }>('POST', '/v1/auth/totp-verify', {
            body: { code, ...rest },
          });
          return reportVerdict(answer, json, answer.delta === null ? '' : ` (step ${answer.delta})`);
        },
      ),
    );
}
