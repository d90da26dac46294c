import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../helpers/processes.js';
import { assertBuilt, issueKey, runCli, startService, startTargetApp, type Service, type TargetApp } from './cli-helpers.js';

// Where client commands connect (flags, environment, the login file) and what their exit codes mean (CONTRACT §9).

/** An environment with no connection settings and a config folder of its own. */
function isolated(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { DEVUTIL_URL: undefined, DEVUTIL_KEY: undefined, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'devutil-xdg-')), ...extra };
}

describe('devutil connection settings and exit codes', () => {
  let service: Service;
  let target: TargetApp;
  let key: string;
  let closedUrl: string;
  before(async () => {
    assertBuilt();
    service = await startService();
    target = await startTargetApp();
    key = await issueKey(service);
    closedUrl = `http://127.0.0.1:${await freePort()}`;
  });
  after(async () => {
    await target?.close();
    await service?.stop();
  });

  it('exit 1 with detail and code when the service answers an error, 2 for usage errors, 3 when it cannot be reached', async () => {
    const env = isolated({ DEVUTIL_URL: service.url, DEVUTIL_KEY: key });
    const runs = await Promise.all([
      runCli(['bins', 'show', 'bin_nope'], { env }),
      runCli(['bins', 'list', '--key', 'dk_00000000000000000000000000000000'], { env }),
      runCli(['bins', 'frobnicate'], { env }),
      runCli(['listen'], { env }),
      runCli(['listen', '--forward-to', '3000', '--retries', 'many'], { env }),
      runCli(['bins', 'list', '--limit', '0'], { env }),
      runCli(['bins', 'list'], { env: isolated() }),
      runCli(['bins', 'list', '--url', 'ftp://example.com'], { env }),
      runCli(['bins', 'list', '--url', closedUrl], { env }),
      runCli(['listen', '--forward-to', '3000'], { env: { ...env, DEVUTIL_URL: closedUrl } }),
      runCli(['listen', '--forward-to', 'http:/localhost:3000/hooks'], { env }),
      runCli(['listen', '--forward-to', 'ht!tp://localhost:3000'], { env }),
    ]);
    const [apiError, badKey, unknownCommand, noTarget, badRetries, badLimit, noUrl, badUrl, unreachable, listenUnreachable, ...badTargets] =
      runs;
    assert.equal(apiError!.status, 1);
    assert.equal(apiError!.stderr, 'Error: No bin bin_nope. (code: not_found, HTTP 404)\n');
    assert.equal(badKey!.status, 1);
    assert.match(badKey!.stderr, /^Error: .+ \(code: invalid_api_key, HTTP 401\)\n$/);
    assert.equal(unknownCommand!.status, 2);
    assert.match(unknownCommand!.stderr, /^error: unknown command 'frobnicate'/);
    assert.deepEqual([noTarget!.status, noTarget!.stderr.split('\n')[0]], [2, "error: required option '--forward-to <url>' not specified"]);
    assert.equal(badRetries!.status, 2);
    assert.match(badRetries!.stderr, /^error: option '--retries <n>' argument 'many' is invalid\. a whole number from 0 to 100/);
    assert.equal(badLimit!.status, 2);
    assert.deepEqual(
      [noUrl!.status, noUrl!.stderr],
      [2, 'error: no service URL: pass --url URL, set DEVUTIL_URL, or run devutil login --url URL\n'],
    );
    assert.deepEqual([badUrl!.status, badUrl!.stderr], [2, 'error: "ftp://example.com" is not an http or https URL\n']);
    assert.deepEqual([unreachable!.status, unreachable!.stderr], [3, `Error: could not reach ${closedUrl}: ECONNREFUSED\n`]);
    assert.deepEqual([listenUnreachable!.status, listenUnreachable!.stderr], [3, `Error: could not reach ${closedUrl}: ECONNREFUSED\n`]);
    // A mistyped scheme is refused before any bin is created, not read as a host named "http".
    assert.deepEqual(
      badTargets.map((run) => [run.status, run.stderr]),
      ['http:/localhost:3000/hooks', 'ht!tp://localhost:3000'].map((raw) => [
        2,
        `error: --forward-to "${raw}" is not a URL (e.g. http://localhost:3000/webhooks or 3000/webhooks)\n`,
      ]),
    );
    for (const run of runs) assert.equal(run.stdout, '');
  });

  it('--help on every command, found by walking the help itself, shows examples and exits 0', async () => {
    const seen: string[] = [];
    let level: string[][] = [[]];
    while (level.length > 0) {
      const runs = await Promise.all(level.map((c) => runCli([...c, '--help'], { env: isolated() })));
      const next: string[][] = [];
      runs.forEach((run, i) => {
        const name = ['devutil', ...level[i]!].join(' ');
        seen.push(name);
        assert.equal(run.status, 0, name);
        assert.match(run.stdout, new RegExp(`^Usage: ${name} `), name);
        assert.match(run.stdout, /\nExamples:\n {2}\$ \S/, name);
        const commands = /\nCommands:\n((?: {2}.*\n)+)/.exec(run.stdout)?.[1] ?? '';
        for (const line of commands.split('\n')) {
          const sub = /^ {2}([a-z][\w-]*)/.exec(line)?.[1];
          if (sub && sub !== 'help') next.push([...level[i]!, sub]);
        }
      });
      level = next;
    }
    for (const name of [
      'devutil listen',
      'devutil tail',
      'devutil bins create',
      'devutil mocks update',
      'devutil call',
      'devutil totp verify',
      'devutil keys create',
    ])
      assert.ok(seen.includes(name), name);
  });

  it('login checks the key, writes the file with mode 0600 in a 0700 folder; the environment overrides it; logout removes it', async () => {
    const env = isolated();
    const file = join(env.XDG_CONFIG_HOME!, 'devutil', 'config.json');
    const refused = await runCli(['login', '--url', service.url, '--key', 'dk_00000000000000000000000000000000'], { env });
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /\(code: invalid_api_key, HTTP 401\)/);
    assert.equal(existsSync(file), false);

    const login = await runCli(['login', '--url', `${service.url}/`], { env, input: `${key}\n` });
    assert.equal(login.status, 0, login.stderr);
    assert.match(login.stdout, new RegExp(`^Logged in to ${service.url.replace(/\./g, '\\.')} as key_\\w+ \\(plan unlimited\\)\\.\n$`));
    assert.equal(login.stderr, `Saved to ${file}\n`);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { url: service.url, key });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(env.XDG_CONFIG_HOME!, 'devutil')).mode & 0o777, 0o700);

    const [fromFile, keyOverride, urlOverride, elsewhere, renamed] = await Promise.all([
      runCli(['bins', 'list', '--json'], { env }),
      runCli(['bins', 'list'], { env: { ...env, DEVUTIL_KEY: 'dk_00000000000000000000000000000000' } }),
      runCli(['bins', 'list'], { env: { ...env, DEVUTIL_URL: closedUrl } }),
      // The file's key belongs to the file's URL: another URL does not get it.
      runCli(['bins', 'list', '--url', target.url], { env }),
      // The same service by another name: the key stays back, and the error says why.
      runCli(['bins', 'list', '--url', service.url.replace('127.0.0.1', 'localhost')], { env }),
    ]);
    assert.equal(fromFile.status, 0, fromFile.stderr);
    assert.equal(typeof (JSON.parse(fromFile.stdout) as { total: number }).total, 'number');
    assert.equal(keyOverride.status, 1);
    assert.match(keyOverride.stderr, /invalid_api_key/);
    assert.equal(urlOverride.status, 3);
    assert.equal(elsewhere.status, 1);
    assert.equal(target.received.at(-1)!.url, '/v1/bins');
    assert.equal(target.received.at(-1)!.headers['x-api-key'], undefined);
    const localhost = service.url.replace('127.0.0.1', 'localhost');
    assert.equal(renamed.status, 1);
    assert.equal(
      renamed.stderr,
      'Error: An API key is required: send it in the X-API-Key header. (code: missing_api_key, HTTP 401)\n' +
        `The key saved by devutil login is for ${service.url}; it is sent there only: pass --key (or set DEVUTIL_KEY) for ${localhost}.\n`,
    );

    const logout = await runCli(['logout'], { env });
    assert.deepEqual([logout.status, logout.stdout], [0, `Logged out: removed ${file}\n`]);
    assert.equal(existsSync(file), false);
    assert.deepEqual(await runCli(['logout'], { env }).then((r) => [r.status, r.stdout]), [0, `Not logged in (no ${file})\n`]);
  });

  it('without XDG_CONFIG_HOME the file is ~/.config/devutil/config.json', async () => {
    const home = mkdtempSync(join(tmpdir(), 'devutil-home-'));
    const env = { ...isolated(), XDG_CONFIG_HOME: undefined, HOME: home };
    const login = await runCli(['login', '--url', service.url, '--key', key], { env });
    assert.equal(login.status, 0, login.stderr);
    assert.equal(statSync(join(home, '.config', 'devutil', 'config.json')).mode & 0o777, 0o600);
  });
});
